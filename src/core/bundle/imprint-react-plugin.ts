/**
 * `import { Document } from 'imprint/react'` always resolves to the components of the
 * imprint that is bundling, whether or not the template's project installed imprint: the
 * components emit the CSS this engine's page runtime and printer expect, so they must come
 * from the same version. Their own `react` imports then go through the React singleton
 * plugin like the template's.
 */
import { bundlerInput, publicEntryTypes } from '../package-root.js';
import type { Plugin } from 'esbuild';

export const IMPRINT_REACT_SPECIFIER = 'imprint/react';

export const imprintReactEntry = (root: string) => bundlerInput(root, 'react/index.ts');

/** The types of `imprint/react` for an editor: its source in a checkout, the shipped declarations in the package. */
export const imprintReactTypes = (root: string): string => publicEntryTypes(root, 'react/index.ts');

export function imprintReactPlugin(root: string): Plugin {
  return {
    name: 'imprint-react',
    setup(build) {
      build.onResolve({ filter: /^imprint\/react$/ }, () => ({ path: imprintReactEntry(root) }));
    },
  };
}
