/**
 * `import { Document, Footer } from '@htmldocs/react'` resolves to Imprint's compatible
 * components (src/compat/htmldocs), whether or not the project installed htmldocs: its own
 * components need Paged.js at render time, which Imprint's printer does not run. `used` tells
 * the caller that it happened, so `imprint publish` can say so.
 */
import { bundlerInput } from '../package-root.js';
import type { Plugin } from 'esbuild';

export const HTMLDOCS_SPECIFIER = '@htmldocs/react';

export const htmldocsCompatEntry = (root: string) => bundlerInput(root, 'compat/htmldocs/index.ts');

export function htmldocsCompatPlugin(root: string, onUse: () => void): Plugin {
  return {
    name: 'imprint-htmldocs-compat',
    setup(build) {
      build.onResolve({ filter: /^@htmldocs\/react$/ }, () => {
        onUse();
        return { path: htmldocsCompatEntry(root) };
      });
    },
  };
}
