/** 3. `imprint render invoice --batch rows.jsonl` in embedded mode: the CLI as a user runs it, start to exit. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, invoiceProps, PAGES_PER_DOCUMENT } from '../lib/invoice.js';
import { pageCount } from '../lib/pdf-pages.js';
import type { Measured } from '../lib/stats.js';
import { checkUntagged, tagging } from '../lib/tagging.js';

export function batch(dataDir: string, work: string, docs: number, concurrency: number): Measured {
  const rows = path.join(work, 'rows.jsonl');
  fs.writeFileSync(rows, Array.from({ length: docs }, (_, n) => JSON.stringify(invoiceProps(n))).join('\n'));
  const out = path.join(work, 'batch-out');
  const summary = path.join(work, 'batch-summary.json');
  const started = performance.now();
  const run = spawnSync(process.execPath, [BIN, 'render', 'invoice', '--embedded', '--batch', rows, '--out-dir', out, '--name', '{{invoiceNo}}.pdf', '--concurrency', String(concurrency), '--summary', summary, ...tagging.cliArgs], {
    env: { ...process.env, IMPRINT_DATA_DIR: dataDir, CI: 'true' },
    encoding: 'utf8',
  });
  const wallMs = performance.now() - started;
  if (run.status !== 0) throw new Error(`the batch failed (exit ${run.status}):\n${run.stderr}`);
  const report = JSON.parse(fs.readFileSync(summary, 'utf8')) as { ok: number; rows: { ms?: number }[] };
  if (report.ok !== docs) throw new Error(`the batch rendered ${report.ok} of ${docs}`);
  const first = path.join(out, fs.readdirSync(out).find((name) => name.endsWith('.pdf'))!);
  const pages = pageCount(first);
  if (pages !== PAGES_PER_DOCUMENT) throw new Error(`the benchmark's invoice should print on ${PAGES_PER_DOCUMENT} pages, ${first} has ${pages}`);
  checkUntagged(first, 'the batch');
  fs.rmSync(out, { recursive: true, force: true });
  return {
    name: '3 imprint render --batch (embedded)',
    docs,
    wallMs,
    latenciesMs: report.rows.map((row) => row.ms ?? NaN),
    concurrency,
    note: 'wall time of the whole CLI run',
  };
}
