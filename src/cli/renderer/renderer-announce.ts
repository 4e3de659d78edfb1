/** What a starting renderer tells the CLI that started it, on its stdout: one line. */

/** Listening: the CLI may connect. */
export const READY_LINE = 'ready';
/** Another renderer holds the lock for this socket: the CLI connects to that one. */
export const BUSY_LINE = 'busy';

export function announce(line: string): void {
  // The CLI that started this may be gone already; nobody else reads this pipe.
  process.stdout.on('error', () => undefined);
  process.stdout.write(`${line}\n`);
}
