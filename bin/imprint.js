#!/usr/bin/env node
// The installed command: the CLI built into dist/ by `npm run build` (run on install).
//
// CommonJS (bin/package.json), so a warm call pays no ES module loader before it reaches the
// renderer: `imprint render <id>` first tries the nail path (dist/nail-client.cjs, a few KiB
// of CommonJS: the call sent whole to the running warm renderer, which does the rest), then
// the thin path (dist/fast-render.js, which loads nothing of the CLI program) for
// `render` and `generate --html <file>`. Any call they decline, having written nothing, runs
// the full CLI (dist/cli.js, an ES module).
'use strict';
const path = require('node:path');

const args = process.argv.slice(2);
const cliEntry = path.join(__dirname, '..', 'dist', 'cli.js');

/** A build without one of the fast paths (an older build script) is only slower, never broken. */
function optional(load) {
  return load().catch((error) => {
    if (error?.code === 'ERR_MODULE_NOT_FOUND' || error?.code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  });
}

async function main() {
  let answered = false;
  if (args[0] === 'render' || args[0] === 'generate') {
    // true: answered; an answer to finish (a note, an error, a PDF for stdout); false: declined.
    const nail = args[0] === 'render' ? await optional(async () => require('../dist/nail-client.cjs')) : undefined;
    const nailed = nail ? await nail.nailRender(args, cliEntry) : false;
    if (nailed === true) return;
    const thin = await optional(() => import('../dist/fast-render.js'));
    if (nailed) return void (await thin.finishNailed(nailed));
    answered = thin ? await thin.fastRender(args, cliEntry) : false;
  }
  if (!answered) await import('../dist/cli.js');
}

// Imprint runs on Node 24 and 22 (package.json "engines"; `imprint doctor` checks the exact
// range). Below 22 the store's node:sqlite and much else are missing, and what fails first
// would not say why, so say it here, in one comparison on the hot path.
if (Number(process.versions.node.split('.')[0]) < 22) {
  const { engines } = require('../package.json');
  process.stderr.write(`✖ Imprint needs Node ${engines.node} (Node 24 LTS recommended); this is Node ${process.versions.node}. Install a newer Node from https://nodejs.org or your package manager.\n`);
  process.exitCode = 2;
} else {
  main();
}
