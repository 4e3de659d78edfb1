/** How a failure reads on the terminal: what happened, then the details that locate it. */
import chalk from 'chalk';
import { isImprintError } from '../../core/errors.js';

export function printError(error: unknown): void {
  if (isImprintError(error)) {
    process.stderr.write(`${chalk.red('✖')} ${error.message}\n`);
    if (error.details) process.stderr.write(`${chalk.dim(error.details.replace(/^/gm, '  '))}\n`);
    return;
  }
  // Not one of ours: a bug. Show the stack so it can be reported.
  process.stderr.write(`${chalk.red('✖ Unexpected error:')} ${(error as Error)?.stack ?? String(error)}\n`);
}
