/**
 * The invoice's e-invoice mapping: the same props that draw the page, in EN 16931's terms.
 * Imprint calls it in the page with the render's props (`Invoice.einvoice`), computes the
 * totals by the norm's rules and refuses a mapping whose stated amounts (the ones printed)
 * disagree, so the PDF and its embedded XML cannot tell different stories.
 */
import type { EInvoice, EInvoiceParty } from 'imprint/einvoice';
import type { InvoiceParty, InvoiceProps } from './Invoice';

/** Round to whole cents to avoid floating point drift in sums. */
export function roundMoney(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/** The amounts the page prints: each line, the subtotal, the tax and the total. */
export function invoiceAmounts(props: InvoiceProps) {
  const lines = props.items.map((item) => roundMoney(item.quantity * item.unitPrice));
  const subtotal = roundMoney(lines.reduce((sum, amount) => sum + amount, 0));
  const tax = roundMoney(subtotal * props.taxRate);
  return { lines, subtotal, tax, total: roundMoney(subtotal + tax) };
}

/** The printed unit labels as UN/ECE Recommendation 20 codes (BT-130); an unknown label has none, which the check names. */
const UNIT_CODES: Record<string, string> = { h: 'HUR', hour: 'HUR', hours: 'HUR', day: 'DAY', days: 'DAY', pcs: 'C62', pc: 'C62', piece: 'C62', kg: 'KGM', m: 'MTR' };

function party(from: InvoiceParty): EInvoiceParty {
  return {
    name: from.name,
    vatId: from.taxId,
    address: { line1: from.address.street, line2: from.address.extra, postcode: from.address.postcode, city: from.address.city, country: from.address.country },
    contact: from.contact || from.phone || from.email ? { name: from.contact, phone: from.phone, email: from.email } : undefined,
    // The party's Peppol id when it has one, else its e-mail (EAS "EM", which XRechnung accepts and Peppol does not).
    electronicAddress: from.endpoint ?? (from.email ? { scheme: 'EM', id: from.email } : undefined),
  };
}

export function toEInvoice(props: InvoiceProps): EInvoice {
  const amounts = invoiceAmounts(props);
  const rate = Math.round(props.taxRate * 10000) / 100;
  return {
    number: props.invoiceNo,
    issueDate: props.issueDate,
    currency: props.currency,
    buyerReference: props.buyerReference,
    purchaseOrderReference: props.purchaseOrder,
    notes: props.notes,
    seller: party(props.seller),
    buyer: party(props.customer),
    lines: props.items.map((item, i) => ({
      name: item.description,
      description: item.details,
      quantity: item.quantity,
      unitCode: UNIT_CODES[(item.unit ?? 'pcs').toLowerCase()]!,
      netPrice: item.unitPrice,
      vat: { category: 'S', rate },
      netAmount: amounts.lines[i],
    })),
    payment: {
      meansCode: '58',
      remittanceInformation: props.payment.reference ?? props.invoiceNo,
      iban: props.payment.iban,
      accountName: props.payment.accountHolder,
      bic: props.payment.bic,
      terms: props.payment.terms,
      dueDate: props.dueDate,
    },
    totals: { lineTotal: amounts.subtotal, taxTotal: amounts.tax, grandTotal: amounts.total, duePayable: amounts.total },
  };
}
