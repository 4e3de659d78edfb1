/**
 * Test only: IMPRINT_TEST_HANG_AT_START=<file> makes one `imprint serve` hang before it listens,
 * the first to create <file> (exclusively: a second node finds it there and starts as usual).
 * The node says so on stderr, then waits for ever: it never listens and never exits by itself,
 * as a node stuck at start would (a database that never answers, a browser that never comes
 * up). What it shows: a test run with such a node fails at that node's start deadline
 * (test/helpers/serve-process.ts) within minutes, naming it, and the run goes on
 * (scripts/run-tests.js; README.md, Development, shows the command and what it prints).
 */
import fs from 'node:fs';

export async function hangIfAsked(dataDir: string): Promise<void> {
  const marker = process.env.IMPRINT_TEST_HANG_AT_START;
  if (!marker) return;
  try {
    fs.writeFileSync(marker, `${process.pid}\n`, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  process.stderr.write(`IMPRINT_TEST_HANG_AT_START: this node (pid ${process.pid}, data folder ${dataDir}) hangs before listening, as asked (${marker})\n`);
  // A timer keeps the process alive; the promise never settles.
  setInterval(() => undefined, 60_000);
  await new Promise<never>(() => undefined);
}
