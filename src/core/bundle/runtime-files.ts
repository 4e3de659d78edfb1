/** The page runtime's files, bundled into every artifact with the template (src/runtime). */
import { bundlerInput } from '../package-root.js';

/** Renders the template in the page: `mount(Template)`. */
export const runtimeEntryFile = (root: string) => bundlerInput(root, 'runtime/mount.tsx');
/** What the runtime installs before the template and react-dom load (React's commit hook, frame demand). */
export const runtimeHooksFile = (root: string) => bundlerInput(root, 'runtime/early-hooks.ts');
