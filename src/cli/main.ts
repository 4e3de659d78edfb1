/**
 * The CLI's one error boundary: it runs the program, turns any failure into a message on
 * stderr and an exit code (2 for usage errors, 1 for others), and always shuts the browser
 * down. Nothing else in the project sets the exit code.
 */
import { CommanderError } from 'commander';
import { ImprintError } from '../core/errors.js';
import type { CliRuntime } from './cli-runtime.js';
import type { CliContext } from './context.js';
import { processEnvironment } from '../backend/environment.js';
import { buildProgram } from './program.js';
import { routeRenderVersionFlag } from './render-version-flag.js';
import { printError } from './ui/print-error.js';

function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) {
    // Help and version are "errors" only in commander's bookkeeping.
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? 0 : 2;
  }
  if (error instanceof ImprintError) return error.exitCode;
  return 1;
}

export async function main(argv: string[], runtime: CliRuntime): Promise<number> {
  let context: CliContext | undefined;
  const program = buildProgram((created) => (context = created), runtime);
  try {
    await program.parseAsync(routeRenderVersionFlag(argv));
    return 0;
  } catch (error) {
    if (!(error instanceof CommanderError)) printError(error, processEnvironment()); // commander already printed its own
    return exitCodeFor(error);
  } finally {
    try {
      await context?.close();
    } finally {
      await runtime.close();
    }
  }
}

/** Runs the CLI on this process's arguments and sets its exit code; the entry point's call. */
export async function runCli(runtime: CliRuntime): Promise<void> {
  // A closed pipe (`imprint render ... | head -c 10`) is the reader's choice, not a failure.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.exitCode = await main(process.argv, runtime);
}
