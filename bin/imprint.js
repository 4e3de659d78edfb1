#!/usr/bin/env node
// The installed command: the CLI built into dist/ by `npm run build` (run on install).
// `imprint render <id>` and `imprint generate --html <file>` first try the thin path to a running warm renderer
// (src/cli/renderer/fast-render.ts), which loads nothing of the CLI program; any call it
// declines, having written nothing, runs the full CLI.
const args = process.argv.slice(2);
let answered = false;
if (args[0] === 'render' || args[0] === 'generate') {
  // A build without the thin path (an older build script) is only slower, never broken.
  const thin = await import('../dist/fast-render.js').catch((error) => {
    if (error?.code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw error;
  });
  answered = thin ? await thin.fastRender(args, new URL('../dist/cli.js', import.meta.url).pathname) : false;
}
if (!answered) await import('../dist/cli.js');
