/**
 * `npx tsx bench/stamp-encrypt.ts [runs]` (default 15): what the stamp and encryption steps
 * (src/core/pdf/stamp-pdf.ts, encrypt-pdf.ts) cost on a 100-page tagged document, the example
 * report with its ledger repeated, rendered once by the built CLI (untimed) and its structure
 * tree taken out of object streams again by qpdf: the engine stamps before compactTags packs
 * them, so the step meets plain objects under one classic table (the shape stamp-in-place.ts
 * reads). Each step runs
 * `runs` times in this process after one warm-up (pdf-lib loaded, the JIT warm), alternated so
 * a change in the machine's load meets both; prints the median and p95 of each, the finishing
 * step (finish-pdf.ts's pdf-lib path, a load and a save of the same file) as the yardstick, the
 * stamp's pdf-lib path (what a file of another shape costs, and what every stamp cost before
 * stamp-in-place.ts), and the stamp's median against issue 39's target (at most 300 ms). Not a test: it measures and prints.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encryptPdf } from '../src/core/pdf/encrypt-pdf.js';
import { parseEncrypt } from '../src/core/pdf/encrypt-options.js';
import { finishPdfWithPdfLib } from '../src/core/pdf/finish-pdf.js';
import { parseStamp } from '../src/core/pdf/stamp-options.js';
import { stampPdf, stampWithPdfLib } from '../src/core/pdf/stamp-pdf.js';
import { BIN, ROOT } from './lib/invoice.js';
import { pageCount } from './lib/pdf-pages.js';
import { percentile } from './lib/stats.js';

const runs = Number(process.argv[2] ?? 15);
const TARGET_MS = 300;
const PAGES = 100;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-bench-stamp-'));
try {
  const report = path.join(ROOT, 'templates-example', 'report');
  const props = JSON.parse(fs.readFileSync(path.join(report, 'props.json'), 'utf8'));
  // The example's 120 rows print on 4 pages; 30 times as many print on about 100.
  props.rows = Array.from({ length: 30 }, () => props.rows).flat();
  fs.writeFileSync(path.join(work, 'props.json'), JSON.stringify(props));
  const file = path.join(work, 'report.pdf');
  execFileSync(process.execPath, [BIN, 'render', path.join(report, 'Report.tsx'), '--props', path.join(work, 'props.json'), '--tagged', '--no-renderer', '--data-dir', path.join(work, 'data'), '-o', file], {
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 300_000,
  });
  const plain = path.join(work, 'plain.pdf');
  execFileSync('qpdf', ['--object-streams=disable', file, plain], { timeout: 120_000 });
  const pdf = fs.readFileSync(plain);
  const pages = pageCount(file);
  if (Math.abs(pages - PAGES) > 5) throw new Error(`The document has ${pages} pages, not about ${PAGES}: adjust the repeat.`);

  const steps: Record<string, () => Promise<Buffer>> = {
    'finish (pdf-lib path)': () => finishPdfWithPdfLib(pdf),
    'stamp text, every page': () => stampPdf(pdf, parseStamp({ text: 'DRAFT', rotate: 'diagonal' })),
    'stamp text, pdf-lib path': () => stampWithPdfLib(pdf, parseStamp({ text: 'DRAFT', rotate: 'diagonal' })),
    'stamp SVG, every page': () => stampPdf(pdf, parseStamp({ svg: '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><rect width="120" height="60" fill="#c00"/></svg>', position: 'top-right' })),
    'encrypt AES-256': () => encryptPdf(pdf, parseEncrypt({ userPassword: 'u', ownerPassword: 'o' })),
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(steps).map((name) => [name, []]));
  for (const step of Object.values(steps)) await step();
  for (let run = 0; run < runs; run++) {
    for (const [name, step] of Object.entries(steps)) {
      const started = performance.now();
      await step();
      times[name]!.push(performance.now() - started);
    }
  }
  console.log(`${pages} pages, tagged, ${(pdf.length / 1024 / 1024).toFixed(1)} MiB; ${runs} runs each, load ${os.loadavg()[0].toFixed(1)}`);
  console.log(`${'step'.padEnd(26)} ${'p50 ms'.padStart(8)} ${'min-max'.padStart(11)} ${'p95 ms'.padStart(8)} ${'x finish'.padStart(9)}`);
  const finish = percentile(times['finish (pdf-lib path)']!, 50);
  for (const [name, values] of Object.entries(times)) {
    const p50 = percentile(values, 50);
    console.log(`${name.padEnd(26)} ${p50.toFixed(0).padStart(8)} ${`${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`.padStart(11)} ${percentile(values, 95).toFixed(0).padStart(8)} ${(p50 / finish).toFixed(2).padStart(9)}`);
  }
  const stamp = percentile(times['stamp text, every page']!, 50);
  console.log(`stamp of ${pages} pages: ${stamp.toFixed(0)} ms against the target of at most ${TARGET_MS} ms: ${stamp <= TARGET_MS ? 'met' : 'not met'}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
