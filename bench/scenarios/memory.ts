/**
 * 6. Memory of the whole process tree (Node and Chromium, PSS) over many renders through the
 * engine and its pool, sampled every `every` renders. The samples rise and fall as garbage is
 * collected and pages are replaced, so growth is measured on peaks: the run after warm-up is cut
 * into windows of WINDOW renders, and the highest sample of the last window is set against the
 * highest of the first. A leak shows as peaks that climb from one window to the next.
 */
import pLimit from 'p-limit';
import type { Artifact } from '../../src/core/artifact.js';
import { encodeArtifact } from '../../src/core/artifact.js';
import { createEngine } from '../../src/core/engine.js';
import { createBrowserProvider } from '../../src/core/render/browser-provider.js';
import { openStore } from '../../src/core/store/index.js';
import { isSpooled } from '../../src/core/spool/spooled-pdf.js';
import { runningAsRoot } from '../lib/browser.js';
import { invoiceProps } from '../lib/invoice.js';
import { treeMemoryMiB } from '../lib/process-memory.js';
import { checkUntagged, tagging } from '../lib/tagging.js';

/** Renders a window holds: the pool's old browser lifetime, which the figures before 2026-11-27 were taken over. */
export const WINDOW = 500;

export interface MemoryReport {
  renders: number;
  warmUp: number;
  samples: { renders: number; mib: number; rootMib: number; processes: number }[];
  /** Peak of each window of WINDOW renders, first (after warm-up) to last. */
  peaksMiB: number[];
  growthPercent: number;
}

export async function memory(dataDir: string, artifact: Artifact, renders: number, concurrency: number, every = 50): Promise<MemoryReport> {
  const store = openStore({ dataDir });
  const team = await store.ensureTeam('memory');
  await store.publishTemplate(team.id, 'invoice', encodeArtifact(artifact), { sourceName: artifact.sourceName });
  const browsers = createBrowserProvider({ search: { explicitPath: process.env.IMPRINT_BROWSER }, runningAsRoot, pool: { concurrency } });
  const engine = createEngine({ store, browsers, renderTimeoutMs: 30_000, publishPdf: () => '', enforceLimits: false });
  const samples: MemoryReport['samples'] = [];
  try {
    const limit = pLimit(concurrency);
    for (let start = 0; start < renders; start += every) {
      const count = Math.min(every, renders - start);
      const render = async (n: number) => {
        const { result } = await engine.renderDocument(team, 'invoice', invoiceProps(n), { format: 'pdf', ...tagging.request });
        // The first document only (in the warm-up), and none kept: the samples measure the renders, not PDFs held here.
        if (n === 0 && result.format === 'pdf') checkUntagged(isSpooled(result.pdf) ? result.pdf.file : result.pdf, 'the memory run');
      };
      await Promise.all(Array.from({ length: count }, (_, i) => limit(() => render(start + i))));
      samples.push({ renders: start + count, ...(await treeMemoryMiB()) });
    }
  } finally {
    await engine.close();
    await store.close();
  }
  const warmUp = Math.max(every, Math.round(renders / 10));
  const peaks = new Map<number, number>();
  for (const sample of samples.filter((s) => s.renders > warmUp)) {
    const slot = Math.floor((sample.renders - 1) / WINDOW);
    peaks.set(slot, Math.max(peaks.get(slot) ?? 0, sample.mib));
  }
  const peaksMiB = [...peaks.values()];
  return { renders, warmUp, samples, peaksMiB, growthPercent: ((peaksMiB[peaksMiB.length - 1] - peaksMiB[0]) / peaksMiB[0]) * 100 };
}
