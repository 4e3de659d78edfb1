/**
 * What finishing one print costs in memory, the in-memory path against the spooled one
 * (src/core/pdf/spooled/finish-file.ts), each in a child process of its own (this Node, tsx,
 * --expose-gc) that loads the code, starts its peak resident set afresh (peak-memory.ts) and
 * then finishes the file: `memory` reads it whole and takes the render's steps on the Buffer
 * (renumbered, then finishPdfPacked or finishPdf, written out), `file` calls finishPdfFile.
 *
 * Two readings. The peak resident set (VmHWM) is what a machine pays, but V8 lets garbage grow
 * the heap by tens of MiB before it collects (its young generation alone), so it says little
 * about what a finish holds. `live` (asked for with `sampleLive`) is that: every 25 ms, and once
 * after the finish has written its output, while it still holds what it read, the child
 * collects all garbage (global.gc, twice: the second waits for the first's freeing of array
 * buffers) and reads heapUsed + arrayBuffers; the peak over those samples, above the reading
 * before the finish. A finish that held the file across one of its awaits (a read, a write) is
 * seen holding it. The sampling slows the finish: the bench leaves it off.
 *
 * Used by test/unit/core/pdf/spooled-finish.test.ts (a bound) and bench/finish-file.ts (figures).
 * Linux only (/proc).
 */
import { execFileSync } from 'node:child_process';
import { ROOT } from './checkout.js';

export type FinishVariant = 'memory' | 'file';

export interface FinishCost {
  /** Resident set when the finish started, and its peak during it, in MiB. */
  startMiB: number;
  peakMiB: number;
  /** With `sampleLive`: the most the finish held at once (heap and array buffers, garbage collected), in MiB. */
  liveMiB?: number;
  /** The finish's time, the first in the process (its code not yet compiled by V8's optimizing tiers). */
  ms: number;
  /** With `warm`: the time of a third finish in the same process, as a service that has finished others takes it. */
  warmMs?: number;
}

const module = (file: string) => JSON.stringify(`${ROOT}/${file}`);

/** The child's script: one finish of `source` into `target` (three with `warm`), then one JSON line. */
const script = (variant: FinishVariant, source: string, target: string, pack: boolean, sampleLive: boolean, warm: boolean) => `
  import fs from 'node:fs';
  import { peakMemoryMiB, resetPeakMemory } from ${module('test/helpers/peak-memory.ts')};
  import { renumberStructureIds } from ${module('src/core/pdf/structure-ids.ts')};
  import { finishPdf, finishPdfPacked } from ${module('src/core/pdf/finish-pdf.ts')};
  import { finishPdfFile } from ${module('src/core/pdf/spooled/finish-file.ts')};
  const [source, target, pack, sampleLive] = [${JSON.stringify(source)}, ${JSON.stringify(target)}, ${pack}, ${sampleLive}];
  const rss = () => Number(/^VmRSS:\\s+(\\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
  const held = () => {
    globalThis.gc();
    globalThis.gc();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const base = held();
  let live = 0;
  const sample = () => { if (sampleLive) live = Math.max(live, held() - base); };
  const finish = {
    memory: async () => {
      const raw = await fs.promises.readFile(source);
      const renumbered = renumberStructureIds(raw);
      const finished = pack ? finishPdfPacked(renumbered, {}) : await finishPdf(renumbered, {});
      if (!finished) throw new Error('not of Chromium\\'s shape');
      await fs.promises.writeFile(target, finished);
      // What the in-memory path holds until its caller lets go: the print, its renumbered copy, the output.
      sample();
      return [raw, renumbered, finished].length;
    },
    file: async () => {
      if (!(await finishPdfFile(source, target, {}, { pack }))) throw new Error('not of Chromium\\'s shape');
      sample();
    },
  }[${JSON.stringify(variant)}];
  resetPeakMemory(process.pid);
  const startMiB = rss();
  const sampler = sampleLive ? setInterval(sample, 25) : undefined;
  const started = performance.now();
  await finish();
  const ms = performance.now() - started;
  clearInterval(sampler);
  const peakMiB = peakMemoryMiB(process.pid);
  let warmMs;
  for (let run = 0; run < (${warm} ? 2 : 0); run++) {
    const again = performance.now();
    await finish();
    warmMs = performance.now() - again;
  }
  console.log(JSON.stringify({ startMiB, peakMiB, liveMiB: sampleLive ? live / 2 ** 20 : undefined, ms, warmMs }));
`;

/** One finish of `source` (a print as Chromium wrote it) into `target` in a child process, and what it cost. */
export function finishCost(variant: FinishVariant, source: string, target: string, { pack, sampleLive = false, warm = false }: { pack: boolean; sampleLive?: boolean; warm?: boolean }): FinishCost {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script(variant, source, target, pack, sampleLive, warm)], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as FinishCost;
}
