/**
 * The CLI's entry point. For a command that will render locally, Chromium is started first,
 * so that it boots while the rest of the CLI loads (launch-ahead.ts); then the CLI runs with
 * the run's state (cli-runtime.ts) handed in.
 */
import { fileURLToPath } from 'node:url';
import { createCliRuntime } from './cli-runtime.js';
import { processEnvironment } from './environment.js';
import { startBrowserAhead } from './launch-ahead.js';

// The CLI started as a warm renderer (renderer/renderer-client.ts starts it so, detached).
if (process.argv[2] === '__imprint-renderer') {
  const { runRendererFromArgs } = await import('./renderer/renderer-main.js');
  await runRendererFromArgs(process.argv[3]);
} else {
  const runtime = createCliRuntime(fileURLToPath(import.meta.url));
  startBrowserAhead(process.argv.slice(2), processEnvironment(), runtime.launchAhead, runtime.egress);
  const { runCli } = await import('./main.js');
  await runCli(runtime);
}
