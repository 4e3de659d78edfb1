/**
 * The CLI's entry point. For a command that will render locally, Chromium is started first,
 * so that it boots while the rest of the CLI loads (launch-ahead.ts); then the CLI runs with
 * the run's state (cli-runtime.ts) handed in. Everything is imported on the branch that needs
 * it: `--version` loads nothing else, and the warm renderer (renderer/) not the CLI program.
 */
const args = process.argv.slice(2);

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // What commander would print, without loading the program: scripts call this to probe the CLI.
  const { imprintVersion } = await import('../core/version.js');
  process.stdout.write(`${imprintVersion()}\n`);
} else if (args[0] === '__imprint-renderer') {
  // The CLI started as a warm renderer (renderer/client/renderer-client.ts starts it so, detached).
  const { runRendererFromEnv } = await import('./renderer/process/renderer-main.js');
  await runRendererFromEnv();
} else {
  const [{ fileURLToPath }, { createCliRuntime }, { processEnvironment }, { startBrowserAhead }] = await Promise.all([
    import('node:url'),
    import('./cli-runtime.js'),
    import('../backend/environment.js'),
    import('./launch-ahead.js'),
  ]);
  const runtime = createCliRuntime(fileURLToPath(import.meta.url));
  startBrowserAhead(args, processEnvironment(), runtime.launchAhead, runtime.egress);
  // A render of a published template: the warm renderer is reached (or started) while the program loads.
  if (args.includes('render')) (await import('./renderer/client/renderer-ahead.js')).startRendererAhead(args, processEnvironment(), runtime);
  const { runCli } = await import('./main.js');
  await runCli(runtime);
}
