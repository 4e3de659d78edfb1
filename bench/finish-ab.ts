/**
 * `npx tsx bench/finish-ab.ts <printed.pdf> <other checkout> [blocks] [per-block]`: the default
 * render's finishing (finishPrint: structure ids, Info, packing) of one print as Chromium wrote it
 * (tagged-cost.ts --keep writes such prints), this checkout's against another's (a `git worktree`
 * of main, with its node_modules), in one process, and the other's steps one by one (ids, Info,
 * packing). Blocks of `per-block` runs alternate between them; each figure is the CPU per
 * document (process.cpuUsage) of a block, median (p10-p90) over the blocks after the first four.
 */
import fs from 'node:fs';
import path from 'node:path';

const [file, other, blocksArg, perArg] = process.argv.slice(2);
if (!file || !other) throw new Error('usage: npx tsx bench/finish-ab.ts <printed.pdf> <other checkout> [blocks] [per-block]');
const blocks = Number(blocksArg ?? 40);
const per = Number(perArg ?? 50);
const raw = fs.readFileSync(file);

const load = (root: string, module: string) => import(path.join(path.resolve(root), module));
const finishThis = (await load(path.join(import.meta.dirname, '..'), 'src/core/finish-print.ts')).finishPrint as typeof import('../src/core/finish-print.js').finishPrint;
const finishOther = (await load(other, 'src/core/finish-print.ts')).finishPrint as typeof import('../src/core/finish-print.js').finishPrint;
const { renumberStructureIds } = (await load(other, 'src/core/pdf/structure-ids.ts')) as typeof import('../src/core/pdf/structure-ids.js');
const { finishPdf } = (await load(other, 'src/core/pdf/finish-pdf.ts')) as typeof import('../src/core/pdf/finish-pdf.js');
const { compactTags } = (await load(other, 'src/core/pdf/accessibility.ts')) as typeof import('../src/core/pdf/accessibility.js');

// A saved tagged print (tagged-cost.ts --keep).
const printed = { pdf: raw, facts: {}, tagged: true };
const renumbered = renumberStructureIds(raw);
const withInfo = await finishPdf(renumbered);
const same = (await finishThis(printed, {}, { date: undefined })).equals(await finishOther(printed, {}, { date: undefined }));
const work: Record<string, () => unknown> = {
  'this finishPrint': () => finishThis(printed, {}, { date: undefined }),
  'other finishPrint': () => finishOther(printed, {}, { date: undefined }),
  'other: ids': () => renumberStructureIds(raw),
  'other: Info': () => finishPdf(renumbered),
  'other: packing': () => compactTags(withInfo, {}),
};
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const times: Record<string, number[]> = {};
for (let block = 0; block < blocks; block++) {
  const entries = Object.entries(work);
  for (const [name, run] of block % 2 ? entries.reverse() : entries) {
    const started = cpuMs();
    for (let i = 0; i < per; i++) await run();
    (times[name] ??= []).push((cpuMs() - started) / per);
  }
}
const at = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) * p)].toFixed(3);
console.log(`${file} (${(raw.length / 1024).toFixed(0)} KiB): ${blocks} blocks of ${per}, CPU ms per document, median (p10-p90); the two give the same bytes: ${same}`);
for (const [name, list] of Object.entries(times)) {
  const kept = list.slice(4);
  console.log(`  ${name.padEnd(18)} ${at(kept, 0.5)} (${at(kept, 0.1)}-${at(kept, 0.9)})`);
}
