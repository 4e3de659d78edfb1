/** `tsx bench/memory-only.ts [renders]`: scenario 6 alone, for looking into memory without the rest. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { INVOICE } from './lib/invoice.js';
import { memory } from './scenarios/memory.js';

const renders = Number(process.argv[2] ?? 2000);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-bench-memory-'));
const { artifact } = await bundleTemplate(INVOICE);
const report = await memory(path.join(work, 'data'), artifact, renders, os.availableParallelism());
process.stdout.write(`peaks per browser lifetime: ${report.peaksMiB.map((p) => p.toFixed(0)).join(' -> ')} MiB (${report.growthPercent.toFixed(1)}%)\n`);
process.stdout.write(`samples (renders: all/Node MiB): ${report.samples.map((s) => `${s.renders}: ${s.mib.toFixed(0)}/${s.rootMib.toFixed(0)}`).join(', ')}\n`);
fs.rmSync(work, { recursive: true, force: true });
