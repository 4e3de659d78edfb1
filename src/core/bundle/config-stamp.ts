/**
 * A stamp of a project's CSS configuration files as they are on disk now (names, sizes, change
 * times): the key under which a long-lived process (the warm renderer, `imprint dev`) keeps a
 * project's PostCSS pipeline. A config edited, added or removed gives another stamp, so the next
 * build loads the config afresh instead of printing with the one loaded before; an unchanged
 * project keeps its pipeline, so a batch of builds still loads its plugins once.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The files css-postcss-config.ts and css-tailwind.ts read from the project folder. */
export const CSS_CONFIG_NAMES = [
  'package.json',
  ...['.postcssrc', '.postcssrc.json', '.postcssrc.yaml', '.postcssrc.yml'],
  ...['js', 'cjs', 'mjs', 'ts', 'cts', 'mts'].flatMap((ext) => [`.postcssrc.${ext}`, `postcss.config.${ext}`]),
  ...['js', 'cjs', 'mjs', 'ts'].map((ext) => `tailwind.config.${ext}`),
];

export function configStamp(projectDir: string): string {
  return CSS_CONFIG_NAMES.map((name) => {
    const stat = fs.statSync(path.join(projectDir, name), { throwIfNoEntry: false });
    return stat ? `${name}:${stat.size}:${stat.mtimeMs}` : '';
  })
    .filter(Boolean)
    .join('|');
}
