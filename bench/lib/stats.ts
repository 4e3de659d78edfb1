/** Latency statistics and the lines the benchmark prints. */
export interface Measured {
  name: string;
  docs: number;
  wallMs: number;
  /** Per-document latencies, when the scenario can see them. */
  latenciesMs: number[];
  concurrency: number;
  note?: string;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const docsPerSecond = (m: Measured) => (m.docs * 1000) / m.wallMs;

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

export function formatRow(m: Measured): string {
  return [
    m.name.padEnd(34),
    String(m.docs).padStart(6),
    String(m.concurrency).padStart(4),
    fixed(docsPerSecond(m)).padStart(9),
    fixed(percentile(m.latenciesMs, 50)).padStart(9),
    fixed(percentile(m.latenciesMs, 95)).padStart(9),
    m.note ? `  ${m.note}` : '',
  ].join(' ');
}

export const HEADER = `${'scenario'.padEnd(34)} ${'docs'.padStart(6)} ${'conc'.padStart(4)} ${'docs/s'.padStart(9)} ${'p50 ms'.padStart(9)} ${'p95 ms'.padStart(9)}`;
