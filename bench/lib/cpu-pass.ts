/**
 * One timed pass of the in-process profilers (profile-document, profile-ab, flags-ab,
 * batch-bounds): `count` documents shared by `workers` (each takes the next while any are left,
 * so the pages work at once as the pool's do), with docs/s and the CPU per document of the
 * browser's process tree (reaped print compositors included, tree-cpu.ts) and of Node.
 */
import { treeCpuMs } from './tree-cpu.js';

export interface PassFigures {
  rate: number;
  chromiumMs: number;
  nodeMs: number;
}

export async function cpuPass<W>(browserPid: number, workers: readonly W[], count: number, one: (worker: W) => Promise<unknown>): Promise<PassFigures> {
  let left = count;
  const node0 = process.cpuUsage();
  const chromium0 = treeCpuMs(browserPid);
  const started = performance.now();
  await Promise.all(workers.map(async (worker) => {
    while (left-- > 0) await one(worker);
  }));
  const wall = performance.now() - started;
  const node = process.cpuUsage(node0);
  return { rate: (count / wall) * 1000, chromiumMs: (treeCpuMs(browserPid) - chromium0) / count, nodeMs: (node.user + node.system) / 1000 / count };
}

export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** `min-max` of a series. */
export const range = (xs: readonly number[], digits = 1) => `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;

/**
 * The A/B table of profile-ab and flags-ab: each side's docs/s and CPU per document (median,
 * range), then each pass's CPU per document, for sides A and B.
 */
export function describeAbPasses(names: readonly string[], results: readonly (readonly PassFigures[])[], nameWidth: number): string[] {
  const col = (xs: number[]) => `${median(xs).toFixed(1)} (${range(xs)})`.padEnd(22);
  return [
    `${'side'.padEnd(nameWidth)} docs/s (median, range)   Chromium CPU ms/doc     Node CPU ms/doc`,
    ...names.map((name, i) => `${name.slice(0, nameWidth).padEnd(nameWidth)} ${col(results[i].map((x) => x.rate))}   ${col(results[i].map((x) => x.chromiumMs))}  ${col(results[i].map((x) => x.nodeMs))}`),
    ...['A', 'B'].map((label, i) => `per pass, ${label}: ${results[i].map((x) => (x.chromiumMs + x.nodeMs).toFixed(1)).join(' ')}`),
  ];
}
