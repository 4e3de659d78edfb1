/**
 * Imprint's own version, read from its package.json once: the CLI's --version and the
 * Creator and Producer of every PDF say the same thing, and a release changes one file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from './package-root.js';

let cached: string | undefined;

export function imprintVersion(): string {
  return (cached ??= (JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version);
}

/** What a PDF names as its Creator (unless the template or request says otherwise) and Producer. */
export const imprintSoftwareName = () => `Imprint ${imprintVersion()}`;
