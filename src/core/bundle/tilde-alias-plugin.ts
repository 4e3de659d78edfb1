/**
 * `import "~/index.css"`, as htmldocs projects write it. The project's tsconfig `paths` decide
 * first (esbuild applies them); htmldocs' own starter maps `~/*` to "./" (no `*`), which
 * points every such import at the project folder itself, so when that resolves to no file
 * `~/` is taken as the project root, then its documents/ folder (htmldocs' layout).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'esbuild';

const isFile = (file: string) => fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;

export function tildeAliasPlugin(projectDir: string): Plugin {
  return {
    name: 'imprint-tilde-alias',
    setup(build) {
      build.onResolve({ filter: /^~\// }, async (args) => {
        if (args.pluginData?.imprintTilde) return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { imprintTilde: true } });
        if (found.errors.length === 0 && found.namespace === 'file' && isFile(found.path)) return { path: found.path, sideEffects: found.sideEffects };
        const rest = args.path.slice(2);
        for (const base of [projectDir, path.join(projectDir, 'documents')]) {
          const candidate = await build.resolve(`./${rest}`, { kind: args.kind, resolveDir: base, importer: args.importer, pluginData: { imprintTilde: true } });
          if (candidate.errors.length === 0) return { path: candidate.path, namespace: candidate.namespace, sideEffects: candidate.sideEffects };
        }
        return undefined; // esbuild reports the import it could not resolve
      });
    },
  };
}
