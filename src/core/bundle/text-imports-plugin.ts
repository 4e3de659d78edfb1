/**
 * `import content from './chapter.md'` gives the file's text (also .txt, .html and .svg), the
 * browser's way to what a Node template would read with fs. Only imports from script: a
 * url() in CSS keeps loading an .svg as an image.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'esbuild';

const TEXT_FILE = /\.(md|markdown|txt|html|htm|svg)$/i;
const FROM_SCRIPT = new Set(['import-statement', 'require-call', 'dynamic-import']);

export function textImportsPlugin(): Plugin {
  return {
    name: 'imprint-text-imports',
    setup(build) {
      build.onResolve({ filter: TEXT_FILE }, async (args) => {
        if (args.pluginData?.imprintText || !FROM_SCRIPT.has(args.kind)) return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { imprintText: true } });
        if (found.errors.length > 0 || found.namespace !== 'file') return undefined; // esbuild reports it as usual
        return { path: found.path, namespace: 'imprint-text' };
      });
      build.onLoad({ filter: /.*/, namespace: 'imprint-text' }, async (args) => ({
        contents: await fs.promises.readFile(args.path, 'utf8'),
        loader: 'text',
        resolveDir: path.dirname(args.path),
        watchFiles: [args.path],
      }));
    },
  };
}
