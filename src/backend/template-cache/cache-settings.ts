/**
 * Where the local template cache lives and how large it may grow: the data folder's
 * `template-cache/` (so --data-dir and IMPRINT_DATA_DIR move it with the store), bounded by
 * IMPRINT_TEMPLATE_CACHE_SIZE (256MiB unless set). `imprint cache clear` empties it.
 */
import path from 'node:path';
import { parseByteSize } from '../byte-size.js';
import { envValue, type Environment } from '../environment.js';
import { CACHE_FOLDER_NAME } from './cache-folder.js';

export const DEFAULT_TEMPLATE_CACHE_BYTES = 256 * 1024 * 1024;
export const TEMPLATE_CACHE_SIZE_ENV = 'IMPRINT_TEMPLATE_CACHE_SIZE';

export const templateCacheDir = (dataDir: string) => path.join(dataDir, CACHE_FOLDER_NAME);

export const templateCacheBytes = (env: Environment): number =>
  envValue(env, TEMPLATE_CACHE_SIZE_ENV, TEMPLATE_CACHE_SIZE_ENV, (text) => parseByteSize(text, 'template cache size')) ?? DEFAULT_TEMPLATE_CACHE_BYTES;
