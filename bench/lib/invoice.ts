/** The benchmark's document: the example invoice, each document with different props. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const INVOICE = path.join(ROOT, 'templates-example', 'invoice', 'Invoice.tsx');
export const BIN = path.join(ROOT, 'bin', 'imprint.js');
const base = JSON.parse(fs.readFileSync(path.join(ROOT, 'templates-example', 'invoice', 'props.json'), 'utf8'));

/** Document n: its own number, customer and quantities, so no two PDFs are alike. */
export function invoiceProps(n: number): Record<string, unknown> {
  return {
    ...base,
    invoiceNo: `INV-BENCH-${String(n).padStart(5, '0')}`,
    customer: { ...base.customer, name: `Customer ${n} B.V.` },
    items: base.items.map((item: { quantity: number }, i: number) => ({ ...item, quantity: item.quantity + ((n + i) % 7) })),
  };
}
