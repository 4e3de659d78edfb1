import fs from 'node:fs';

/** A template given as a file (a path, or an existing .tsx/.jsx/... here) rather than a published id. */
export function isTemplateFile(ref: string): boolean {
  return /[\\/]/.test(ref) || (/\.(tsx|jsx|ts|js|mjs)$/.test(ref) && fs.existsSync(ref));
}
