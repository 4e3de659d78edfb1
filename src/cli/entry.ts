/**
 * The CLI's entry point. For a command that will render locally, Chromium is started first,
 * so that it boots while the rest of the CLI loads (launch-ahead.ts); then the CLI runs with
 * the run's state (cli-runtime.ts) handed in.
 */
import { createCliRuntime } from './cli-runtime.js';
import { processEnvironment } from './environment.js';
import { startBrowserAhead } from './launch-ahead.js';

const runtime = createCliRuntime();
startBrowserAhead(process.argv.slice(2), processEnvironment(), runtime.launchAhead, runtime.egress);
const { runCli } = await import('./main.js');
await runCli(runtime);
