#!/usr/bin/env node
// The installed command: the CLI built into dist/ by `npm run build` (run on install).
import '../dist/cli.js';
