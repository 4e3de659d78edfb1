/**
 * Templates run in the browser, where Node's modules (`fs`, `path`, `node:fs`...) do not
 * exist. esbuild's own error ("could not resolve fs") says nothing about what to do instead,
 * so an import of a Node built-in that the project does not provide as a package (some
 * browser polyfills share the names: `buffer`, `events`, `punycode`) fails with what works:
 * importing the file itself, or the static folder.
 */
import { builtinModules } from 'node:module';
import type { Plugin } from 'esbuild';

const BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith('_')));

const isBuiltin = (specifier: string) => specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0]!);

export const browserOnlyMessage = (specifier: string) =>
  `"${specifier}" is a Node.js module, and templates run in the browser, where it does not exist. ` +
  'To use a file\'s content, import the file: `import text from "./content.md"` gives its text (also .txt, .html and .svg; .json gives its data). ' +
  'For images and fonts, put them in the static/ folder and refer to them as /static/<name>.';

export function browserOnlyPlugin(): Plugin {
  return {
    name: 'imprint-browser-only',
    setup(build) {
      build.onResolve({ filter: /^[a-z_:][\w:./-]*$/ }, async (args) => {
        if (args.pluginData?.imprintBrowserOnly || !isBuiltin(args.path)) return undefined;
        if (!args.path.startsWith('node:')) {
          // A package of that name in the project (a browser polyfill) is what the import means.
          const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { imprintBrowserOnly: true } });
          if (found.errors.length === 0) return { path: found.path, namespace: found.namespace, external: found.external, sideEffects: found.sideEffects, pluginData: found.pluginData };
        }
        return { errors: [{ text: browserOnlyMessage(args.path) }] };
      });
    },
  };
}
