/**
 * IMPRINT_SPOOL_FROM: the size from which a print is written to a file as it arrives rather than
 * held in memory (core/spool/spool-policy.ts), for the CLI, its warm renderer and `imprint
 * serve` alike. Operators lower it on a machine short of memory; the tests lower it to put an
 * ordinary document through the spooled path.
 */
import { defaultSpoolPolicy, DEFAULT_SPOOL_FROM_BYTES, type SpoolPolicy } from '../core/spool/spool-policy.js';
import { parseByteSize } from './byte-size.js';
import { envValue, type Environment } from './environment.js';

export const SPOOL_FROM_ENV = 'IMPRINT_SPOOL_FROM';

export const spoolPolicyFrom = (env: Environment): SpoolPolicy =>
  defaultSpoolPolicy(envValue(env, SPOOL_FROM_ENV, SPOOL_FROM_ENV, (text) => parseByteSize(text, 'spool threshold')) ?? DEFAULT_SPOOL_FROM_BYTES);
