/**
 * 6. Memory of the whole process tree (Node and Chromium, PSS) over many renders through the
 * engine and its pool, sampled every `every` renders. The pool restarts its browser every 500
 * renders by default, so the samples saw-tooth; growth compares the samples after warm-up.
 */
import pLimit from 'p-limit';
import type { Artifact } from '../../src/core/artifact.js';
import { encodeArtifact } from '../../src/core/artifact.js';
import { createEngine } from '../../src/core/engine.js';
import { createBrowserProvider } from '../../src/core/render/browser-provider.js';
import { openStore } from '../../src/core/store/index.js';
import { runningAsRoot } from '../lib/browser.js';
import { invoiceProps } from '../lib/invoice.js';
import { treeMemoryMiB } from '../lib/process-memory.js';

export interface MemoryReport {
  renders: number;
  warmUp: number;
  samples: { renders: number; mib: number; processes: number }[];
  /** Mean of the samples in the first window after warm-up, and of the last window. */
  afterWarmUpMiB: number;
  endMiB: number;
  growthPercent: number;
  peakMiB: number;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

export async function memory(dataDir: string, artifact: Artifact, renders: number, concurrency: number, every = 50): Promise<MemoryReport> {
  const store = openStore({ dataDir });
  const team = store.ensureTeam('memory');
  store.publishTemplate(team.id, 'invoice', encodeArtifact(artifact), { sourceName: artifact.sourceName });
  const browsers = createBrowserProvider({ search: { explicitPath: process.env.IMPRINT_BROWSER }, runningAsRoot, pool: { concurrency } });
  const engine = createEngine({ store, browsers, renderTimeoutMs: 30_000, publishPdf: () => '', enforceLimits: false });
  const samples: MemoryReport['samples'] = [];
  try {
    const limit = pLimit(concurrency);
    for (let start = 0; start < renders; start += every) {
      const count = Math.min(every, renders - start);
      await Promise.all(Array.from({ length: count }, (_, i) => limit(() => engine.renderDocument(team, 'invoice', invoiceProps(start + i), { format: 'pdf' }))));
      samples.push({ renders: start + count, ...(await treeMemoryMiB()) });
    }
  } finally {
    await engine.close();
    store.close();
  }
  const warmUp = Math.max(every, Math.round(renders / 10));
  const after = samples.filter((s) => s.renders > warmUp);
  // Thirds of the run after warm-up, each spanning browser restarts alike, compared by their means.
  const window = Math.max(1, Math.floor(after.length / 3));
  const afterWarmUpMiB = mean(after.slice(0, window).map((s) => s.mib));
  const endMiB = mean(after.slice(-window).map((s) => s.mib));
  return {
    renders,
    warmUp,
    samples,
    afterWarmUpMiB,
    endMiB,
    growthPercent: ((endMiB - afterWarmUpMiB) / afterWarmUpMiB) * 100,
    peakMiB: Math.max(...after.map((s) => s.mib)),
  };
}
