/** The page runtime's files, bundled into every artifact with the template (src/runtime). */
import path from 'node:path';

/** Renders the template in the page: `mount(Template)`. */
export const runtimeEntryFile = (root: string) => path.join(root, 'src', 'runtime', 'mount.tsx');
/** What the runtime installs before the template and react-dom load (React's commit hook, frame demand). */
export const runtimeHooksFile = (root: string) => path.join(root, 'src', 'runtime', 'early-hooks.ts');
