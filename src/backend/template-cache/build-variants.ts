/**
 * The two ways a local template is bundled, each kept in the template cache under its own
 * records (the options are part of the key): the build `publish` stores and a render by file
 * prints, and `imprint dev`'s. They print the same pages; dev's is unminified (minifying is
 * about a third of a save's rebuild, bench/dev-rebuild.ts) and carries the source position of
 * each JSX element (source-positions-plugin.ts), so the studio's accessibility findings name
 * the line to fix. A published artifact carries neither: it is stored and loaded by every
 * render of its id. The props schema does not depend on the variant: a build of one takes it
 * from a current build of the other (template-cache.ts).
 */
import type { BundleOptions } from '../../core/bundle/bundle-template.js';

export const BUILD_VARIANTS = {
  publish: { minify: true, sourcePositions: false },
  dev: { minify: false, sourcePositions: true },
} as const satisfies Record<string, Required<BundleOptions>>;

export type BuildVariant = keyof typeof BUILD_VARIANTS;

export const otherVariants = (variant: BuildVariant): BuildVariant[] => (Object.keys(BUILD_VARIANTS) as BuildVariant[]).filter((other) => other !== variant);
