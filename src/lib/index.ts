/**
 * Imprint as a library: `import { createImprint } from 'imprint'`. The same engine, options
 * and error codes as the CLI (docs/library.md).
 */
export { createImprint } from './create-imprint.js';
export { ImprintError } from '../core/errors.js';
export type * from './types.js';
