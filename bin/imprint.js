#!/usr/bin/env node
// The installed command: the CLI built into dist/ by `npm run build` (run on install).
//
// CommonJS (bin/package.json), so a warm call pays no ES module loader before it reaches the
// renderer. Which way a call goes (the nail path, the thin path, the full CLI) is chosen in one
// place, src/cli/renderer/client/route.ts, built into dist/route.cjs (about 2 KiB, no
// module of its own loaded): handed the built files to load, it answers the call on a fast path
// or says `full`, having written nothing, and the full CLI (dist/cli.js, an ES module) runs it.
'use strict';
const path = require('node:path');

const args = process.argv.slice(2);

/** dist/route.cjs; undefined from a build without it (an older build script): only slower, never broken. */
function loadRoute() {
  try {
    return require('../dist/route.cjs');
  } catch (error) {
    if (error?.code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

async function main() {
  const route = await loadRoute()?.entryRoute(args, {
    cliEntry: path.join(__dirname, '..', 'dist', 'cli.js'),
    nail: () => require('../dist/nail-client.cjs'),
    thin: () => import('../dist/fast-render.js'),
  });
  if (route === undefined || route.route === 'full') await import('../dist/cli.js');
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
