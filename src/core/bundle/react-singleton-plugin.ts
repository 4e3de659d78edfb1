/**
 * Exactly one React in a bundle: the user's project's own when it has one (so its version
 * is the one the template was written against), else imprint's. Without this, the page
 * runtime would pull in our React and the template the project's, and hooks would break.
 */
import type { Plugin } from 'esbuild';

const REACT_IMPORT = /^(react|react-dom)(\/.*)?$/;

export function reactSingletonPlugin(projectDir: string, fallbackDir: string): Plugin {
  return {
    name: 'imprint-react-singleton',
    setup(build) {
      build.onResolve({ filter: REACT_IMPORT }, async (args) => {
        if (args.pluginData?.imprintReact) return undefined; // our own nested resolve below
        for (const resolveDir of [projectDir, fallbackDir]) {
          const result = await build.resolve(args.path, {
            kind: args.kind,
            resolveDir,
            pluginData: { imprintReact: true },
          });
          if (result.errors.length === 0) return { path: result.path, sideEffects: result.sideEffects };
        }
        return undefined; // let esbuild report its usual "could not resolve" error
      });
    },
  };
}
