/**
 * How a failure reads on the terminal: what happened and its stable code, then the details
 * that locate it. Never a stack of ours by default: the built CLI's frames are positions in
 * minified chunks of dist/, which say nothing to a user; DEBUG=imprint shows them, with every
 * cause, for a bug report. (dist/ ships without source maps: they would not fit the package's
 * size budget.)
 */
import chalk from 'chalk';
import { isImprintError } from '../../core/errors.js';
import type { Environment } from '../../backend/environment.js';

/** DEBUG=imprint (or imprint:*, or *, among other names), as the debug package reads it. */
export const debugRequested = (env: Environment): boolean => (env.DEBUG ?? '').split(/[\s,]+/).some((name) => name === '*' || name === 'imprint' || name === 'imprint:*');

/** The error and its causes, each with its stack. */
function stacks(error: unknown): string {
  const lines: string[] = [];
  for (let current = error, depth = 0; current !== undefined && depth < 10; current = (current as Error)?.cause, depth++) {
    lines.push(`${depth > 0 ? 'Caused by: ' : ''}${(current as Error)?.stack ?? String(current)}`);
  }
  return lines.join('\n');
}

export function printError(error: unknown, env: Environment): void {
  const debug = debugRequested(env);
  if (isImprintError(error)) {
    process.stderr.write(`${chalk.red('✖')} ${error.message} ${chalk.dim(`[${error.code}]`)}\n`);
    if (error.details) process.stderr.write(`${chalk.dim(error.details.replace(/^/gm, '  '))}\n`);
  } else {
    // Not one of ours: a bug. Its message, and how to see its stack for a report.
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(`${chalk.red('✖ Unexpected error:')} ${message} ${chalk.dim('[INTERNAL]')}\n`);
    if (!debug) process.stderr.write(`${chalk.dim('  This is a bug in imprint: run the command again with DEBUG=imprint to see where it happened, and report it with that output.')}\n`);
  }
  if (debug) process.stderr.write(`${chalk.dim(stacks(error).replace(/^/gm, '  '))}\n`);
}
