/** The page runtime's files, bundled into every artifact with the template (src/runtime). */
import path from 'node:path';

/** Renders the template in the page: `mount(Template)`. */
export const runtimeEntryFile = (root: string) => path.join(root, 'src', 'runtime', 'mount.tsx');
/** Sees React's commits; imported before anything loads react-dom. */
export const runtimeActivityFile = (root: string) => path.join(root, 'src', 'runtime', 'react-activity.ts');
