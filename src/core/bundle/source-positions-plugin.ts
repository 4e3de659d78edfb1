/**
 * For a build whose page must say where each element was written (`imprint check --a11y`, the
 * dev studio's findings): esbuild compiles JSX with its dev transform (`jsxDev`), which calls
 * `jsxDEV` from `react/jsx-dev-runtime` with the element's file:line:column, and this plugin
 * answers that import with Imprint's own module (src/runtime/source-positions-jsx.ts), which
 * keeps the positions and builds the elements with React's production runtime. Only the
 * template's own JSX is compiled here: npm packages and `imprint/react` ship compiled JSX calls
 * and keep none, so a finding inside one is reported at the author's element above it.
 */
import type { Plugin } from 'esbuild';
import { bundlerInput } from '../package-root.js';

export const sourcePositionsRuntime = (root: string) => bundlerInput(root, 'runtime/source-positions-jsx.ts');

export function sourcePositionsPlugin(root: string): Plugin {
  return {
    name: 'imprint-source-positions',
    setup(build) {
      build.onResolve({ filter: /^react\/jsx-dev-runtime$/ }, () => ({ path: sourcePositionsRuntime(root) }));
    },
  };
}
