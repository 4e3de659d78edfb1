/**
 * Progress and notes, always on stderr so stdout stays clean for PDFs and JSON. A spinner
 * on an interactive terminal; outside one (pipes, CI) no spinner frames, only the outcome lines.
 */
import chalk from 'chalk';
import type { Ora } from 'ora';
import { interactive } from './interactive.js';

export { interactive };

export interface Step {
  succeed(text: string): void;
  /** Clears the spinner without a line: the outcome is told elsewhere (an error, stdout). */
  stop(): void;
}

export function startStep(text: string): Step {
  if (!interactive()) {
    return { succeed: (text) => done(text), stop: () => {} };
  }
  // ora is loaded only for a terminal (about 0.1 s of modules), so the spinner appears a
  // moment after the step starts; a step that is over by then shows only its outcome.
  let spinner: Ora | undefined;
  let over = false;
  void import('ora').then(({ default: ora }) => {
    if (!over) spinner = ora({ text, stream: process.stderr }).start();
  });
  return {
    succeed: (text) => {
      over = true;
      if (spinner) spinner.succeed(text);
      else done(text);
    },
    stop: () => {
      over = true;
      spinner?.stop();
    },
  };
}

export async function withStep<T>(text: string, work: () => Promise<T>, done: (value: T) => string | undefined): Promise<T> {
  const step = startStep(text);
  try {
    const value = await work();
    const message = done(value);
    if (message) step.succeed(message);
    else step.stop();
    return value;
  } catch (error) {
    step.stop();
    throw error;
  }
}

export function note(text: string): void {
  process.stderr.write(`${chalk.cyan('ℹ')} ${text}\n`);
}

export function warn(text: string): void {
  process.stderr.write(`${chalk.yellow('⚠')} ${text}\n`);
}

/** A finished piece of work, e.g. "Wrote invoice.pdf (41.2 KiB)". */
export function done(text: string): void {
  process.stderr.write(interactive() ? `${chalk.green('✔')} ${text}\n` : `${text}\n`);
}
