/**
 * `--timeout <duration>` on render and generate: how long one document may take on this
 * machine before it fails with RENDER_TIMEOUT (exit 1), its wait for a browser page included.
 * IMPRINT_TIMEOUT sets it for every call; the default lives in core/render/deadline.ts. In
 * remote mode the service's own deadline (`imprint serve --render-timeout`) decides.
 */
import { Option, type Command } from 'commander';
import { ImprintError } from '../core/errors.js';
import { DEFAULT_RENDER_TIMEOUT_MS, formatSeconds } from '../core/render/deadline.js';
import { TIMEOUT_ENV, TIMEOUT_FLAG } from '../backend/render-timeout.js';
import type { CliContext } from './context.js';

export interface TimeoutFlags {
  timeout?: string;
}

export function addTimeoutOption(command: Command): Command {
  return command.addOption(
    new Option(
      TIMEOUT_FLAG,
      `longest one document may take on this machine, its wait for a browser included: 90s, 5m, 1h (default ${formatSeconds(DEFAULT_RENDER_TIMEOUT_MS)}, or ${TIMEOUT_ENV}); a long report needs more`,
    ),
  );
}

/** Hands --timeout to the context before anything renders; refused in remote mode, where the service's deadline decides. */
export function useTimeoutFlag(ctx: CliContext, flags: TimeoutFlags, renderedHere: boolean): void {
  if (flags.timeout !== undefined && !renderedHere) {
    throw new ImprintError('USAGE', `--timeout sets the deadline of renders on this machine; in remote mode the service's own deadline decides (imprint serve --render-timeout). Add --embedded to render here.`);
  }
  ctx.useTimeoutFlag(flags.timeout);
  // Read now: a bad value is a usage error before any work starts.
  void ctx.renderTimeoutMs;
}
