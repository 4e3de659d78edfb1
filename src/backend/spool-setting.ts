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

/** The threshold the variable sets, else the default; a value that is no size is a usage error naming the variable. */
export const spoolFromBytes = (env: Environment): number =>
  envValue(env, SPOOL_FROM_ENV, SPOOL_FROM_ENV, (text) => parseByteSize(text, 'spool threshold')) ?? DEFAULT_SPOOL_FROM_BYTES;

export const spoolPolicyFrom = (env: Environment): SpoolPolicy => defaultSpoolPolicy(spoolFromBytes(env));
