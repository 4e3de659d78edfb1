/**
 * EN 16931's calculation model: line net amounts, the VAT breakdown per category and rate,
 * and the document totals, each rounded to cents as the norm's rules state them:
 *
 *   BT-131 line net  = quantity × price ÷ base quantity + line charges − line allowances
 *   BT-106 (BR-CO-10) = Σ BT-131;  BT-107 (BR-CO-11) = Σ allowances;  BT-108 (BR-CO-12) = Σ charges
 *   BT-109 (BR-CO-13) = BT-106 − BT-107 + BT-108
 *   BT-116 per category and rate = its lines + its charges − its allowances
 *   BT-117 (BR-CO-17) = BT-116 × rate ÷ 100;  BT-110 (BR-CO-14) = Σ BT-117
 *   BT-112 (BR-CO-15) = BT-109 + BT-110;  BT-115 (BR-CO-16) = BT-112 − BT-113 + BT-114
 *
 * The input is a model that passed the shape checks (rules.ts); nothing here throws.
 */
import { roundAmount, sumAmounts } from './decimal.js';
import type { EInvoice, EInvoiceAllowanceCharge, VatCategory } from './model.js';

export interface VatBreakdown {
  category: VatCategory;
  /** BT-119, in percent (0 for categories without VAT). */
  rate: number;
  /** BT-116. */
  basis: number;
  /** BT-117. */
  tax: number;
  /** BT-120. */
  exemptionReason?: string;
}

export interface CalculatedTotals {
  lineTotal: number;
  allowanceTotal: number;
  chargeTotal: number;
  taxBasisTotal: number;
  taxTotal: number;
  grandTotal: number;
  paidAmount: number;
  roundingAmount: number;
  duePayable: number;
}

export interface CalculatedInvoice {
  invoice: EInvoice;
  /** BT-131 of each line, in the model's order. */
  lineNet: number[];
  vat: VatBreakdown[];
  totals: CalculatedTotals;
}

const amountsOf = (list: readonly EInvoiceAllowanceCharge[] | undefined) => (list ?? []).map((entry) => entry.amount);

/** BT-131 of one line, computed (the stated one is compared with it by the rules). */
export function computeLineNet(line: EInvoice['lines'][number]): number {
  const base = line.baseQuantity ?? 1;
  return roundAmount(roundAmount((line.quantity * line.netPrice) / base) + sumAmounts(amountsOf(line.charges)) - sumAmounts(amountsOf(line.allowances)));
}

/** The rate a category carries: categories without VAT have 0 whatever was written. */
export const effectiveRate = (category: VatCategory, rate: number | undefined): number => (['E', 'AE', 'K', 'G', 'O'].includes(category) ? 0 : Number((rate ?? 0).toPrecision(12)));

export function calculateInvoice(invoice: EInvoice): CalculatedInvoice {
  // A stated line amount is what the page shows; the rules refuse one that differs from the computed.
  const lineNet = invoice.lines.map((line) => (line.netAmount === undefined ? computeLineNet(line) : roundAmount(line.netAmount)));

  const groups = new Map<string, { category: VatCategory; rate: number; parts: number[] }>();
  const add = (category: VatCategory, rate: number | undefined, amount: number) => {
    const effective = effectiveRate(category, rate);
    const key = `${category}:${effective}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { category, rate: effective, parts: [] }));
    group.parts.push(amount);
  };
  invoice.lines.forEach((line, index) => add(line.vat.category, line.vat.rate, lineNet[index]!));
  for (const charge of invoice.charges ?? []) if (charge.vat) add(charge.vat.category, charge.vat.rate, charge.amount);
  for (const allowance of invoice.allowances ?? []) if (allowance.vat) add(allowance.vat.category, allowance.vat.rate, -allowance.amount);

  const vat: VatBreakdown[] = [...groups.values()].map((group) => {
    const basis = sumAmounts(group.parts);
    const entry: VatBreakdown = { category: group.category, rate: group.rate, basis, tax: roundAmount((basis * group.rate) / 100) };
    const reason = invoice.vatExemptionReasons?.[group.category];
    if (reason !== undefined) entry.exemptionReason = reason;
    return entry;
  });

  const lineTotal = sumAmounts(lineNet);
  const allowanceTotal = sumAmounts(amountsOf(invoice.allowances));
  const chargeTotal = sumAmounts(amountsOf(invoice.charges));
  const taxBasisTotal = roundAmount(lineTotal - allowanceTotal + chargeTotal);
  const taxTotal = sumAmounts(vat.map((entry) => entry.tax));
  const grandTotal = roundAmount(taxBasisTotal + taxTotal);
  const paidAmount = roundAmount(invoice.paidAmount ?? 0);
  const roundingAmount = roundAmount(invoice.roundingAmount ?? 0);
  const duePayable = roundAmount(grandTotal - paidAmount + roundingAmount);
  return { invoice, lineNet, vat, totals: { lineTotal, allowanceTotal, chargeTotal, taxBasisTotal, taxTotal, grandTotal, paidAmount, roundingAmount, duePayable } };
}
