/**
 * How long one render may take before it fails with RENDER_TIMEOUT, its wait for a browser
 * page included: `--timeout <duration>` on render and generate, else IMPRINT_TIMEOUT, else the
 * engine's default (core/render/deadline.ts). `imprint serve` reads the same variable behind
 * its --render-timeout (cli/serve-settings.ts).
 */
import { DEFAULT_RENDER_TIMEOUT_MS } from '../core/render/deadline.js';
import { ImprintError, isImprintError } from '../core/errors.js';
import { parseDuration } from './duration.js';
import { envValue, type Environment } from './environment.js';

export const TIMEOUT_ENV = 'IMPRINT_TIMEOUT';
export const TIMEOUT_FLAG = '--timeout <duration>';

const parse = (text: string) => parseDuration(text, 'render timeout');

export function renderTimeoutMs(flag: string | undefined, env: Environment): number {
  if (flag !== undefined) return parse(flag);
  return envValue(env, TIMEOUT_ENV, TIMEOUT_FLAG, parse) ?? DEFAULT_RENDER_TIMEOUT_MS;
}

/** What the CLI adds to a render that ran out of time: the setting that gives it longer. */
export const CLI_TIMEOUT_ADVICE = `Give it longer with --timeout <duration> (e.g. --timeout 5m) or ${TIMEOUT_ENV}.`;

/** A RENDER_TIMEOUT from `work` with `advice` after its message (same code, same exit status); anything else as it is. */
export async function withTimeoutAdvice<T>(work: Promise<T>, advice: string | undefined): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (advice && isImprintError(error) && error.code === 'RENDER_TIMEOUT') throw new ImprintError('RENDER_TIMEOUT', `${error.message} ${advice}`, { cause: error, details: error.details });
    throw error;
  }
}
