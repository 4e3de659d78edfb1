/** The benchmark's document: the example invoice, each document with different props. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const INVOICE = path.join(ROOT, 'templates-example', 'invoice', 'Invoice.tsx');
export const BIN = path.join(ROOT, 'bin', 'imprint.js');
const base = JSON.parse(fs.readFileSync(path.join(ROOT, 'templates-example', 'invoice', 'props.json'), 'utf8'));

/**
 * The reference document is a 2-page A4 invoice: the example's own lines fill one
 * page, so each document carries them twice (18 lines). The batch scenario checks the count.
 */
export const PAGES_PER_DOCUMENT = 2;
const LINE_SETS = 2;

/** Document n: its own number, customer and quantities, so no two PDFs are alike. */
export function invoiceProps(n: number): Record<string, unknown> {
  const lines = Array.from({ length: LINE_SETS }, (_, set) =>
    base.items.map((item: { description: string; quantity: number }, i: number) => ({
      ...item,
      description: set === 0 ? item.description : `${item.description} (continued)`,
      quantity: item.quantity + ((n + i + set) % 7),
    })),
  ).flat();
  return {
    ...base,
    invoiceNo: `INV-BENCH-${String(n).padStart(5, '0')}`,
    customer: { ...base.customer, name: `Customer ${n} B.V.` },
    items: lines,
  };
}
