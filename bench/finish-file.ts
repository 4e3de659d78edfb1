/**
 * `npx tsx bench/finish-file.ts [runs]` (issue 40): the default render's finishing of a tagged
 * print (structure ids, Info, packing into object streams) in memory, as finish-print.ts does it
 * on the print's Buffer, against the spooled finish from file to file
 * (src/core/pdf/spooled/finish-file.ts), on two tagged ledger tables printed by Chromium
 * (test/helpers/ledger-print.ts): 2,000 rows and 12,000 rows (some 200 A4 pages). Each run is a
 * child process of its own (test/helpers/finish-memory.ts), the two ways alternating (A B, B A,
 * ...) so a change of the shared machine's speed meets both alike: the finish's time (the file
 * read, finished and written, measured in the child), the first in its process (cold: V8 has not
 * optimized the code yet, as in a one-shot CLI render) and the third (warm, as in a service),
 * median (min-max) of `runs` (default 5); and the child's peak resident set over the first
 * (VmHWM, the whole process: Node's own ~65 MiB included) and its growth during it. Then one more
 * run of each with the garbage-collected sampling of what it holds at once (slower, so not
 * timed). Not a test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { finishCost, type FinishCost, type FinishVariant } from '../test/helpers/finish-memory.js';
import { ledgerHtml, printHtml, startPrintingBrowser } from '../test/helpers/ledger-print.js';
import { countPdfPages } from '../src/core/limits/pdf-pages.js';
import { percentile } from './lib/stats.js';

const runs = Number(process.argv[2] ?? 5);
const DOCUMENTS = [
  { name: '2,000-row tagged table', rows: 2_000 },
  { name: '12,000-row tagged table', rows: 12_000 },
];
const VARIANTS: { variant: FinishVariant; name: string }[] = [
  { variant: 'memory', name: 'in memory' },
  { variant: 'file', name: 'file to file' },
];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-bench-finish-file-'));
const spread = (values: number[], digits = 0) => `${percentile(values, 50).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;

try {
  console.log(`machine: ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${runs} runs of each`);
  const { browser, kill } = await startPrintingBrowser();
  const sources: string[] = [];
  try {
    for (const document of DOCUMENTS) {
      const source = path.join(work, `ledger-${document.rows}.pdf`);
      fs.writeFileSync(source, await printHtml(browser, ledgerHtml(document.rows), true));
      sources.push(source);
    }
  } finally {
    await kill();
  }

  for (const [index, document] of DOCUMENTS.entries()) {
    const source = sources[index];
    const size = fs.statSync(source).size;
    const costs = new Map<FinishVariant, FinishCost[]>(VARIANTS.map(({ variant }) => [variant, []]));
    const target = (variant: FinishVariant) => path.join(work, `finished-${document.rows}-${variant}.pdf`);
    for (let run = 0; run < runs; run++) {
      for (const { variant } of run % 2 ? [...VARIANTS].reverse() : VARIANTS) costs.get(variant)!.push(finishCost(variant, source, target(variant), { pack: true, warm: true }));
    }
    const same = fs.readFileSync(target('memory')).equals(fs.readFileSync(target('file')));
    console.log(`\n${document.name}: ${(size / 2 ** 20).toFixed(1)} MiB printed, ${countPdfPages(fs.readFileSync(source))} pages, ${(fs.statSync(target('file')).size / 2 ** 20).toFixed(1)} MiB finished; the two give the same bytes: ${same}`);
    console.log(`  ${'way'.padEnd(14)} ${'cold ms'.padEnd(20)} ${'warm ms'.padEnd(20)} ${'peak RSS MiB'.padEnd(16)} ${'RSS growth MiB'.padEnd(16)} held at once MiB`);
    for (const { variant, name } of VARIANTS) {
      const list = costs.get(variant)!;
      const held = finishCost(variant, source, target(variant), { pack: true, sampleLive: true }).liveMiB!;
      console.log(
        `  ${name.padEnd(14)} ${spread(list.map((cost) => cost.ms)).padEnd(20)} ${spread(list.map((cost) => cost.warmMs!)).padEnd(20)} ${spread(list.map((cost) => cost.peakMiB)).padEnd(16)} ${spread(list.map((cost) => cost.peakMiB - cost.startMiB)).padEnd(16)} ${held.toFixed(1)}`,
      );
    }
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
