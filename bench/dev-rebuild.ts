/**
 * `tsx bench/dev-rebuild.ts [rounds]`: what one save costs `imprint dev` in build time, on a
 * copy of the example invoice edited between builds. Compares the one-shot build (publish's:
 * minified, a new esbuild build each time) with dev's kept context (`rebuild()`), minified and not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleTemplate, createTemplateBuilder } from '../src/core/bundle/bundle-template.js';
import { percentile } from './lib/stats.js';

const rounds = Number(process.argv[2] ?? 10);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-bench-rebuild-'));
fs.cpSync(path.resolve('templates-example/invoice'), work, { recursive: true });
const template = path.join(work, 'Invoice.tsx');
const original = fs.readFileSync(template, 'utf8');
let edits = 0;
// Each build sees a changed template, as after a save.
const edit = () => fs.writeFileSync(template, `${original}\n// edit ${++edits}\n`);

async function time(label: string, build: () => Promise<unknown>) {
  await build(); // the first build (cold) is not what a save costs
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    edit();
    const started = performance.now();
    await build();
    samples.push(performance.now() - started);
  }
  process.stdout.write(`${label}: median ${percentile(samples, 50).toFixed(0)} ms (min ${Math.min(...samples).toFixed(0)}, max ${Math.max(...samples).toFixed(0)}; ${rounds} builds)\n`);
}

try {
  await time('one-shot build, minified (publish, render, check)', () => bundleTemplate(template));
  const minified = createTemplateBuilder(template, { minify: true });
  await time('kept context, minified', () => minified.build());
  await minified.dispose();
  const dev = createTemplateBuilder(template, { minify: false });
  await time('kept context, unminified (imprint dev)', () => dev.build());
  await dev.dispose();
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
