/** The embedded store's folder: --data-dir, else IMPRINT_DATA_DIR, else the platform's data folder. */
import path from 'node:path';
import envPaths from 'env-paths';
import { envText, type Environment } from './environment.js';

export function resolveDataDir(options: { dataDir?: string }, env: Environment): string {
  return path.resolve(options.dataDir ?? envText(env, 'IMPRINT_DATA_DIR') ?? envPaths('imprint', { suffix: '' }).data);
}
