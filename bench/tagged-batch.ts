/**
 * `npx tsx bench/tagged-batch.ts [--docs N] [--runs N] [--other CHECKOUT] [--cpu-prof DIR]`:
 * what tags cost the batch row (issue 38/40): `imprint render invoice --batch rows.jsonl
 * --embedded` of N example invoices (2 A4 pages each, bench/lib/invoice.ts), tagged (the
 * default) against `--no-tagged`, through the built CLI (bin/imprint.js, `npm run build`
 * first), as the bench's batch row runs it. `--other`: another built checkout's CLI as well (a
 * `git worktree` of main, built), so a change is measured against what it replaces in the same
 * run. The variants alternate (A B / B A ...) so the shared machine's load meets each alike;
 * each figure is a median with its spread (min-max) and the load average around the run.
 *
 * `--cpu-prof DIR`: each run's CLI process profiled (node --cpu-prof), the profiles written to
 * DIR/<variant>-<run>.cpuprofile; bench/lib/cpu-profile-split.ts reads them into ms per
 * document by finishing step.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { invoiceProps, ROOT } from './lib/invoice.js';
import { publishInvoice } from './lib/published-invoice.js';
import { percentile } from './lib/stats.js';
import { describeProfile } from './lib/cpu-profile-split.js';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '200' },
    runs: { type: 'string', default: '3' },
    other: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const docs = Number(values.docs);
const runs = Number(values.runs);
const profiles = values['cpu-prof'] ? path.resolve(values['cpu-prof']) : undefined;

interface Variant {
  name: string;
  bin: string;
  flags: string[];
}
const checkouts = [{ label: 'this', root: ROOT }, ...(values.other ? [{ label: 'other', root: path.resolve(values.other) }] : [])];
const VARIANTS: Variant[] = checkouts.flatMap(({ label, root }) => [
  { name: `${label} tagged`, bin: path.join(root, 'bin', 'imprint.js'), flags: [] },
  { name: `${label} --no-tagged`, bin: path.join(root, 'bin', 'imprint.js'), flags: ['--no-tagged'] },
]);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-tagged-batch-'));
const dataDir = path.join(work, 'data');
await publishInvoice(dataDir);
const rows = path.join(work, 'rows.jsonl');
fs.writeFileSync(rows, Array.from({ length: docs }, (_, n) => JSON.stringify(invoiceProps(n))).join('\n'));
if (profiles) fs.mkdirSync(profiles, { recursive: true });

const times = VARIANTS.map(() => [] as number[]);
/** CPU of every process this one has reaped (the CLI, and the Chromium it started and waited for), ms. */
const reapedCpuMs = () => {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
};
const cpus = VARIANTS.map(() => [] as number[]);
const loads: number[] = [];
const once = (index: number, run: number) => {
  const variant = VARIANTS[index];
  const out = path.join(work, 'out');
  const name = `${variant.name.replace(/\W+/g, '-')}-${run}`;
  const node = profiles ? ['--cpu-prof', '--cpu-prof-dir', profiles, '--cpu-prof-name', `${name}.cpuprofile`] : [];
  loads.push(os.loadavg()[0]);
  const cpuBefore = reapedCpuMs();
  const started = performance.now();
  const result = spawnSync(process.execPath, [...node, variant.bin, 'render', 'invoice', '--embedded', '--batch', rows, '--out-dir', out, '--name', '{{invoiceNo}}.pdf', ...variant.flags], {
    env: { ...process.env, IMPRINT_DATA_DIR: dataDir, CI: 'true' },
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  const cpu = (reapedCpuMs() - cpuBefore) / docs;
  if (result.status !== 0) throw new Error(`${variant.name} failed (exit ${result.status}):\n${result.stderr}`);
  const written = fs.readdirSync(out).filter((file) => file.endsWith('.pdf')).length;
  if (written !== docs) throw new Error(`${variant.name} wrote ${written} of ${docs} PDFs`);
  fs.rmSync(out, { recursive: true, force: true });
  if (run >= 0) times[index].push(ms), cpus[index].push(cpu);
  process.stderr.write(`${variant.name}: ${(ms / 1000).toFixed(2)} s, CPU ${cpu.toFixed(1)} ms/doc${profiles ? `  ${describeProfile(path.join(profiles, `${name}.cpuprofile`), docs)}` : ''}\n`);
};

// Warm-up, each variant once (the page cache, Chromium's first start); not counted.
VARIANTS.forEach((_, index) => once(index, -1));
const order = VARIANTS.map((_, i) => i);
for (let run = 0; run < runs; run++) for (const index of run % 2 ? [...order].reverse() : order) once(index, run);

const median = (list: number[]) => percentile(list, 50);
console.log(`${docs} invoices per batch, ${runs} alternating runs of each; load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}; wall s, median (min-max)`);
VARIANTS.forEach((variant, i) => {
  const list = times[i].map((ms) => ms / 1000);
  const cpu = cpus[i];
  console.log(
    `  ${variant.name.padEnd(20)} ${median(list).toFixed(2)} (${Math.min(...list).toFixed(2)}-${Math.max(...list).toFixed(2)})  ${(docs / median(list)).toFixed(1)} docs/s  ` +
      `CPU ${median(cpu).toFixed(1)} (${Math.min(...cpu).toFixed(1)}-${Math.max(...cpu).toFixed(1)}) ms/doc  runs ${list.map((s) => s.toFixed(2)).join(' ')}`,
  );
});
for (let i = 0; i < VARIANTS.length; i += 2) {
  const paired = times[i].map((ms, k) => ms / times[i + 1][k]);
  console.log(`  ${checkouts[i / 2].label}: tagged / --no-tagged run by run ${paired.map((r) => r.toFixed(2)).join(' ')}, median ${median(paired).toFixed(2)}x`);
}
fs.rmSync(work, { recursive: true, force: true });
