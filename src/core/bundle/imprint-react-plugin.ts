/**
 * `import { Document } from 'imprint/react'` always resolves to the components of the
 * imprint that is bundling, whether or not the template's project installed imprint: the
 * components emit the CSS this engine's page runtime and printer expect, so they must come
 * from the same version. Their own `react` imports then go through the React singleton
 * plugin like the template's.
 */
import path from 'node:path';
import type { Plugin } from 'esbuild';

export const IMPRINT_REACT_SPECIFIER = 'imprint/react';

export const imprintReactEntry = (root: string) => path.join(root, 'src', 'react', 'index.ts');

export function imprintReactPlugin(root: string): Plugin {
  return {
    name: 'imprint-react',
    setup(build) {
      build.onResolve({ filter: /^imprint\/react$/ }, () => ({ path: imprintReactEntry(root) }));
    },
  };
}
