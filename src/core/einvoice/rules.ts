/**
 * The checks Imprint makes before any XML is written or any page printed: the model's shape
 * (a template's `einvoice` static runs in the page and its result is untrusted data), the
 * business rules of EN 16931 that a model can break (each named by its rule id, BR-...),
 * the profile's own rules (XRechnung's BR-DE-...), and the totals the template states against
 * the computed ones (BR-CO-10...). The full official rule sets run in `imprint check
 * --einvoice` (Schematron); these are the ones a mapping gets wrong, said in its own terms.
 */
import { calculateInvoice, computeLineNet, type CalculatedInvoice } from './calculate.js';
import { formatAmount, sameAmount } from './decimal.js';
import { VAT_CATEGORIES, type EInvoice, type EInvoiceProfile } from './model.js';
import { forbiddenXmlCharacter } from '../xml-chars.js';

export interface RuleViolation {
  /** The rule's id as the norm or the CIUS names it (BR-CO-15, BR-DE-15) or IMPRINT-SHAPE for a wrong type. */
  rule: string;
  /** The business term or its path in the model ("BT-10 buyerReference"). */
  term: string;
  message: string;
}

/**
 * How large a model Imprint checks and writes (issue 41, case 4). Writing the XML costs about
 * 0.15 ms a line (xmlbuilder2), so 10,000 lines are about 1.5 s of CPU; 100,000 lines, which fit in
 * a 6 MB request, took minutes. Invoices that large are split, or carry the detail as an attachment.
 */
export const EINVOICE_LIMITS = {
  lines: 10_000,
  /** Entries of each other list: notes, the document's allowances and charges, a line's allowances and charges. */
  listEntries: 1_000,
  /** Characters of text in the whole model (names, notes, descriptions...). */
  textCharacters: 8_000_000,
} as const;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const isDate = (value: unknown) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
const present = (value: unknown) => value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');

/** The shape: every field the writers read has the type the model declares. Stops at the first level that is wrong. */
function checkShape(model: unknown, out: RuleViolation[]): model is EInvoice {
  const wrong = (term: string, expected: string) => out.push({ rule: 'IMPRINT-SHAPE', term, message: `${term} must be ${expected}.` });
  if (!isObject(model)) {
    wrong('the einvoice model', 'an object (what the template\'s `einvoice` static returns)');
    return false;
  }
  const before = out.length;
  const tooLong = (term: string, count: number, limit: number, what: string) => {
    out.push({ rule: 'IMPRINT-LIMIT', term, message: `${term} has ${count.toLocaleString('en')} ${what}, more than the ${limit.toLocaleString('en')} an e-invoice may have here; split the invoice into several, or carry the detail in an attached document.` });
  };
  /** An array no longer than `limit`, or a violation (and then its entries go unchecked: checking them is the cost the limit avoids). */
  const withinLimit = (value: unknown[], term: string, limit: number, what: string) => {
    if (value.length <= limit) return true;
    tooLong(term, value.length, limit, what);
    return false;
  };
  let textCharacters = 0;
  const writable = (value: string, term: string) => {
    textCharacters += value.length;
    const forbidden = forbiddenXmlCharacter(value);
    if (forbidden) out.push({ rule: 'IMPRINT-XML-CHAR', term, message: `${term} holds ${forbidden}, a control character XML 1.0 cannot carry (the invoice would be ill-formed); remove it.` });
  };
  const str = (obj: Record<string, unknown>, key: string, term: string) => {
    const value = obj[key];
    if (value === undefined) return;
    if (typeof value !== 'string') return wrong(term, 'a string');
    writable(value, term);
  };
  const num = (obj: Record<string, unknown>, key: string, term: string) => obj[key] !== undefined && (typeof obj[key] !== 'number' || !Number.isFinite(obj[key])) && wrong(term, 'a finite number');
  const date = (obj: Record<string, unknown>, key: string, term: string) => obj[key] !== undefined && !isDate(obj[key]) && wrong(term, 'a date written YYYY-MM-DD');
  const vat = (value: unknown, term: string) => {
    if (value === undefined) return;
    if (!isObject(value)) return wrong(term, 'an object such as {"category": "S", "rate": 19}');
    if (!(VAT_CATEGORIES as readonly unknown[]).includes(value.category)) wrong(`${term}.category`, `one of ${VAT_CATEGORIES.join(', ')}`);
    num(value, 'rate', `${term}.rate`);
  };
  const allowanceCharges = (value: unknown, term: string) => {
    if (value === undefined) return;
    if (!Array.isArray(value)) return wrong(term, 'an array');
    if (!withinLimit(value, term, EINVOICE_LIMITS.listEntries, 'entries')) return;
    value.forEach((entry, i) => {
      if (!isObject(entry)) return wrong(`${term}[${i}]`, 'an object');
      if (typeof entry.amount !== 'number' || !Number.isFinite(entry.amount)) wrong(`${term}[${i}].amount`, 'a finite number');
      str(entry, 'reason', `${term}[${i}].reason`);
      str(entry, 'reasonCode', `${term}[${i}].reasonCode`);
      vat(entry.vat, `${term}[${i}].vat`);
    });
  };
  const party = (value: unknown, term: string) => {
    if (!isObject(value)) return wrong(term, 'an object with name and address');
    for (const key of ['name', 'tradingName', 'id', 'legalRegistrationId', 'vatId', 'taxNumber']) str(value, key, `${term}.${key}`);
    if (!isObject(value.address)) wrong(`${term}.address`, 'an object with at least country (ISO 3166-1 alpha-2, e.g. "DE")');
    else for (const key of ['line1', 'line2', 'line3', 'city', 'postcode', 'subdivision', 'country']) str(value.address, key, `${term}.address.${key}`);
    if (value.contact !== undefined) {
      if (!isObject(value.contact)) wrong(`${term}.contact`, 'an object');
      else for (const key of ['name', 'phone', 'email']) str(value.contact, key, `${term}.contact.${key}`);
    }
    if (value.electronicAddress !== undefined && (!isObject(value.electronicAddress) || typeof value.electronicAddress.scheme !== 'string' || typeof value.electronicAddress.id !== 'string')) {
      wrong(`${term}.electronicAddress`, 'an object {"scheme": "EM", "id": "invoices@example.com"}');
    } else if (value.electronicAddress !== undefined) for (const key of ['scheme', 'id']) str(value.electronicAddress as Record<string, unknown>, key, `${term}.electronicAddress.${key}`);
  };

  for (const key of ['number', 'typeCode', 'currency', 'buyerReference', 'purchaseOrderReference', 'contractReference']) str(model, key, key);
  date(model, 'issueDate', 'issueDate');
  date(model, 'deliveryDate', 'deliveryDate');
  if (model.notes !== undefined && (!Array.isArray(model.notes) || model.notes.some((note) => typeof note !== 'string'))) wrong('notes', 'an array of strings');
  else if (model.notes && withinLimit(model.notes, 'notes', EINVOICE_LIMITS.listEntries, 'entries')) model.notes.forEach((note, i) => writable(note, `notes[${i}]`));
  if (isObject(model.vatExemptionReasons)) for (const key of Object.keys(model.vatExemptionReasons)) str(model.vatExemptionReasons, key, `vatExemptionReasons.${key}`);
  if (model.period !== undefined) {
    if (!isObject(model.period)) wrong('period', 'an object {"start": "YYYY-MM-DD", "end": "YYYY-MM-DD"}');
    else {
      date(model.period, 'start', 'period.start');
      date(model.period, 'end', 'period.end');
    }
  }
  party(model.seller, 'seller');
  party(model.buyer, 'buyer');
  if (!Array.isArray(model.lines)) wrong('lines', 'an array of invoice lines');
  else if (withinLimit(model.lines, 'lines', EINVOICE_LIMITS.lines, 'lines'))
    model.lines.forEach((line, i) => {
      const term = `lines[${i}]`;
      if (!isObject(line)) return wrong(term, 'an object');
      for (const key of ['id', 'note', 'name', 'description', 'sellerItemId', 'unitCode']) str(line, key, `${term}.${key}`);
      for (const key of ['quantity', 'netPrice', 'baseQuantity', 'netAmount']) num(line, key, `${term}.${key}`);
      if (!isObject(line.vat)) wrong(`${term}.vat`, 'an object such as {"category": "S", "rate": 19}');
      else vat(line.vat, `${term}.vat`);
      allowanceCharges(line.allowances, `${term}.allowances`);
      allowanceCharges(line.charges, `${term}.charges`);
    });
  allowanceCharges(model.allowances, 'allowances');
  allowanceCharges(model.charges, 'charges');
  if (model.payment !== undefined) {
    if (!isObject(model.payment)) wrong('payment', 'an object');
    else {
      for (const key of ['meansCode', 'meansText', 'remittanceInformation', 'iban', 'accountName', 'bic', 'terms']) str(model.payment, key, `payment.${key}`);
      date(model.payment, 'dueDate', 'payment.dueDate');
    }
  }
  num(model, 'paidAmount', 'paidAmount');
  num(model, 'roundingAmount', 'roundingAmount');
  if (model.totals !== undefined) {
    if (!isObject(model.totals)) wrong('totals', 'an object');
    else for (const key of ['lineTotal', 'allowanceTotal', 'chargeTotal', 'taxBasisTotal', 'taxTotal', 'grandTotal', 'duePayable']) num(model.totals, key, `totals.${key}`);
  }
  if (model.vatExemptionReasons !== undefined && !isObject(model.vatExemptionReasons)) wrong('vatExemptionReasons', 'an object such as {"AE": "Reverse charge"}');
  if (textCharacters > EINVOICE_LIMITS.textCharacters) tooLong('the model', textCharacters, EINVOICE_LIMITS.textCharacters, 'characters of text');
  return out.length === before;
}

/** EN 16931's rules on the terms a model carries (the cardinalities and the VAT category rules). */
function checkBusinessRules(invoice: EInvoice, out: RuleViolation[]) {
  const need = (value: unknown, rule: string, term: string, message: string) => {
    if (!present(value)) out.push({ rule, term, message });
  };
  need(invoice.number, 'BR-02', 'BT-1 number', 'An invoice shall have an invoice number (BT-1).');
  need(invoice.issueDate, 'BR-03', 'BT-2 issueDate', 'An invoice shall have an issue date (BT-2).');
  need(invoice.currency, 'BR-05', 'BT-5 currency', 'An invoice shall have a currency code (BT-5), e.g. "EUR".');
  if (present(invoice.currency) && !/^[A-Z]{3}$/.test(invoice.currency)) out.push({ rule: 'BR-CL-04', term: 'BT-5 currency', message: `The currency code (BT-5) must be an ISO 4217 code such as "EUR", not ${JSON.stringify(invoice.currency)}.` });
  if (invoice.typeCode !== undefined && !/^\d{3}$/.test(invoice.typeCode)) out.push({ rule: 'BR-CL-01', term: 'BT-3 typeCode', message: `The type code (BT-3) must be a UNTDID 1001 code such as "380", not ${JSON.stringify(invoice.typeCode)}.` });
  need(invoice.seller.name, 'BR-06', 'BT-27 seller.name', "An invoice shall contain the seller's name (BT-27).");
  need(invoice.buyer.name, 'BR-07', 'BT-44 buyer.name', "An invoice shall contain the buyer's name (BT-44).");
  need(invoice.seller.address.country, 'BR-09', 'BT-40 seller.address.country', "The seller's address shall contain its country code (BT-40), e.g. \"DE\".");
  need(invoice.buyer.address.country, 'BR-11', 'BT-55 buyer.address.country', "The buyer's address shall contain its country code (BT-55).");
  for (const [who, bt, country] of [['seller', 'BT-40', invoice.seller.address.country], ['buyer', 'BT-55', invoice.buyer.address.country]] as const) {
    if (present(country) && !/^[A-Z]{2}$/.test(country)) out.push({ rule: 'BR-CL-14', term: `${bt} ${who}.address.country`, message: `The ${who}'s country code (${bt}) must be ISO 3166-1 alpha-2 such as "DE", not ${JSON.stringify(country)}.` });
  }
  for (const [who, bt, vatId] of [['seller', 'BT-31', invoice.seller.vatId], ['buyer', 'BT-48', invoice.buyer.vatId]] as const) {
    if (typeof vatId === 'string' && present(vatId) && !/^[A-Z]{2}/.test(vatId.replace(/\s/g, ''))) out.push({ rule: 'BR-CO-09', term: `${bt} ${who}.vatId`, message: `The ${who}'s VAT identifier (${bt}) shall start with its ISO 3166-1 country prefix (Greece: "EL"), e.g. "DE123456789".` });
  }
  if (invoice.lines.length === 0) out.push({ rule: 'BR-16', term: 'BG-25 lines', message: 'An invoice shall have at least one invoice line (BG-25).' });
  invoice.lines.forEach((line, i) => {
    const at = `lines[${i}]`;
    need(line.quantity, 'BR-22', `BT-129 ${at}.quantity`, `Invoice line ${i + 1} shall have an invoiced quantity (BT-129).`);
    need(line.unitCode, 'BR-23', `BT-130 ${at}.unitCode`, `Invoice line ${i + 1} shall have a unit of measure code (BT-130), a UN/ECE Recommendation 20 code such as "HUR" (hour) or "C62" (piece).`);
    need(line.name, 'BR-25', `BT-153 ${at}.name`, `Invoice line ${i + 1} shall contain the item name (BT-153).`);
    need(line.netPrice, 'BR-26', `BT-146 ${at}.netPrice`, `Invoice line ${i + 1} shall contain the item net price (BT-146).`);
    if (typeof line.netPrice === 'number' && line.netPrice < 0) out.push({ rule: 'BR-27', term: `BT-146 ${at}.netPrice`, message: `The item net price (BT-146) of line ${i + 1} shall not be negative.` });
    if (line.baseQuantity !== undefined && line.baseQuantity <= 0) out.push({ rule: 'IMPRINT-SHAPE', term: `BT-149 ${at}.baseQuantity`, message: `The price base quantity (BT-149) of line ${i + 1} must be positive.` });
  });
  [...(invoice.allowances ?? []).map((entry, i) => ({ entry, term: `allowances[${i}]`, rule: 'BR-32', bt: 'BT-95' })), ...(invoice.charges ?? []).map((entry, i) => ({ entry, term: `charges[${i}]`, rule: 'BR-37', bt: 'BT-102' }))].forEach(({ entry, term, rule, bt }) => {
    if (!entry.vat) out.push({ rule, term: `${bt} ${term}.vat`, message: `Each document level allowance or charge shall have a VAT category code (${bt}).` });
    if (term.startsWith('allowances') && !present(entry.reason) && !present(entry.reasonCode)) out.push({ rule: 'BR-33', term: `BT-97 ${term}.reason`, message: 'Each document level allowance shall have a reason (BT-97) or a reason code (BT-98).' });
    if (term.startsWith('charges') && !present(entry.reason) && !present(entry.reasonCode)) out.push({ rule: 'BR-38', term: `BT-104 ${term}.reason`, message: 'Each document level charge shall have a reason (BT-104) or a reason code (BT-105).' });
  });
  if (invoice.payment && !present(invoice.payment.meansCode)) out.push({ rule: 'BR-49', term: 'BT-81 payment.meansCode', message: 'A payment instruction shall specify the payment means type code (BT-81), e.g. "58" for a SEPA credit transfer.' });
  if (invoice.payment && ['30', '58'].includes(invoice.payment.meansCode) && !present(invoice.payment.iban)) {
    out.push({ rule: 'BR-50', term: 'BT-84 payment.iban', message: 'A credit transfer (payment means 30 or 58) shall name the account to pay to (BT-84).' });
  }
  if (invoice.period && invoice.period.end < invoice.period.start) out.push({ rule: 'BR-29', term: 'BT-74 period.end', message: 'The invoicing period end date (BT-74) shall be on or after its start date (BT-73).' });

  // The VAT category rules: which identifiers a category needs and which rates it allows.
  // Each category's rates in one array, pushed to: copying it for every line made this quadratic
  // (30,000 lines took 9.8 s on the service's main thread: issue 41, case 4).
  const categories = new Map<string, number[]>();
  const note = (category: string, rate: number | undefined) => {
    const rates = categories.get(category);
    if (rates) rates.push(rate ?? NaN);
    else categories.set(category, [rate ?? NaN]);
  };
  for (const line of invoice.lines) note(line.vat.category, line.vat.rate);
  for (const entry of [...(invoice.allowances ?? []), ...(invoice.charges ?? [])]) if (entry.vat) note(entry.vat.category, entry.vat.rate);
  const sellerVat = present(invoice.seller.vatId) || present(invoice.seller.taxNumber);
  for (const [category, rates] of categories) {
    const needSeller = (rule: string, what: string) => {
      if (!sellerVat) out.push({ rule, term: 'BT-31 seller.vatId', message: `An invoice with ${what} (VAT category ${category}) shall contain the seller's VAT identifier (BT-31) or tax registration (BT-32).` });
    };
    if (category === 'S') {
      needSeller('BR-S-02', 'standard rated items');
      if (rates.some((rate) => !(rate > 0))) out.push({ rule: 'BR-S-05', term: 'BT-152 vat.rate', message: 'Items of VAT category S (standard rated) shall have a VAT rate greater than zero (BT-152).' });
    } else if (category === 'Z') {
      needSeller('BR-Z-02', 'zero rated items');
      if (rates.some((rate) => rate !== 0)) out.push({ rule: 'BR-Z-05', term: 'BT-152 vat.rate', message: 'Items of VAT category Z (zero rated) shall have the VAT rate 0 (BT-152).' });
    } else if (category === 'E') needSeller('BR-E-02', 'VAT exempt items');
    else if (category === 'AE') {
      needSeller('BR-AE-02', 'reverse charge items');
      if (!present(invoice.buyer.vatId)) out.push({ rule: 'BR-AE-02', term: 'BT-48 buyer.vatId', message: "A reverse charge invoice (VAT category AE) shall contain the buyer's VAT identifier (BT-48)." });
    } else if (category === 'K') {
      needSeller('BR-IC-02', 'intra-community supplies');
      if (!present(invoice.buyer.vatId)) out.push({ rule: 'BR-IC-02', term: 'BT-48 buyer.vatId', message: "An intra-community supply (VAT category K) shall contain the buyer's VAT identifier (BT-48)." });
    } else if (category === 'G') needSeller('BR-G-02', 'export items');
    else if (category === 'O' && (present(invoice.seller.vatId) || present(invoice.buyer.vatId))) {
      out.push({ rule: 'BR-O-02', term: 'BT-31 seller.vatId', message: 'An invoice with items not subject to VAT (category O) shall contain neither the seller\'s (BT-31) nor the buyer\'s VAT identifier (BT-48).' });
    }
    if (['E', 'AE', 'K', 'G', 'O'].includes(category) && !present(invoice.vatExemptionReasons?.[category as keyof NonNullable<EInvoice['vatExemptionReasons']>])) {
      const rule = { E: 'BR-E-10', AE: 'BR-AE-10', K: 'BR-IC-10', G: 'BR-G-10', O: 'BR-O-10' }[category]!;
      out.push({ rule, term: `BT-120 vatExemptionReasons.${category}`, message: `The VAT breakdown of category ${category} shall carry an exemption reason (BT-120), e.g. vatExemptionReasons: {"${category}": "..."}.` });
    }
  }
}

/** The profile's own rules: XRechnung (the German CIUS) asks for more than EN 16931. */
function checkProfileRules(invoice: EInvoice, profile: EInvoiceProfile, out: RuleViolation[]) {
  if (profile === 'minimum' || profile === 'basic-wl') {
    if (!present(invoice.seller.vatId) && !present(invoice.seller.taxNumber) && !present(invoice.seller.legalRegistrationId)) {
      out.push({ rule: 'BR-CO-26', term: 'BT-31 seller.vatId', message: "The seller shall be identified by its VAT identifier (BT-31), tax registration (BT-32) or legal registration (BT-30)." });
    }
  }
  if (profile !== 'xrechnung') return;
  const need = (value: unknown, rule: string, term: string, message: string) => {
    if (!present(value)) out.push({ rule, term, message });
  };
  need(invoice.buyerReference, 'BR-DE-15', 'BT-10 buyerReference', 'An XRechnung shall carry the buyer reference (BT-10): the Leitweg-ID of a public buyer, or a reference the buyer gave.');
  need(invoice.payment, 'BR-DE-1', 'BG-16 payment', 'An XRechnung shall contain payment instructions (BG-16): payment.meansCode, and payment.iban for a transfer.');
  need(invoice.seller.contact, 'BR-DE-2', 'BG-6 seller.contact', "An XRechnung shall contain the seller's contact (BG-6): name, phone and email.");
  need(invoice.seller.address.city, 'BR-DE-3', 'BT-37 seller.address.city', "An XRechnung shall contain the seller's city (BT-37).");
  need(invoice.seller.address.postcode, 'BR-DE-4', 'BT-38 seller.address.postcode', "An XRechnung shall contain the seller's post code (BT-38).");
  if (invoice.seller.contact) {
    need(invoice.seller.contact.name, 'BR-DE-5', 'BT-41 seller.contact.name', "An XRechnung shall contain the seller's contact point (BT-41).");
    need(invoice.seller.contact.phone, 'BR-DE-6', 'BT-42 seller.contact.phone', "An XRechnung shall contain the seller's contact telephone number (BT-42).");
    need(invoice.seller.contact.email, 'BR-DE-7', 'BT-43 seller.contact.email', "An XRechnung shall contain the seller's contact email address (BT-43).");
  }
  need(invoice.buyer.address.city, 'BR-DE-8', 'BT-52 buyer.address.city', "An XRechnung shall contain the buyer's city (BT-52).");
  need(invoice.buyer.address.postcode, 'BR-DE-9', 'BT-53 buyer.address.postcode', "An XRechnung shall contain the buyer's post code (BT-53).");
}

/** The totals the template states, against the computed ones: each difference named by its rule. */
function checkStatedTotals(calculated: CalculatedInvoice, out: RuleViolation[]) {
  const { invoice, totals } = calculated;
  invoice.lines.forEach((line, i) => {
    if (line.netAmount === undefined) return;
    const computed = computeLineNet(line);
    if (!sameAmount(line.netAmount, computed)) {
      out.push({ rule: 'PEPPOL-EN16931-R120', term: `BT-131 lines[${i}].netAmount`, message: `Line ${i + 1}'s net amount (BT-131) is ${formatAmount(line.netAmount)}, but quantity × net price ÷ base quantity + charges − allowances is ${formatAmount(computed)}.` });
    }
  });
  const stated = invoice.totals ?? {};
  const rows: [keyof typeof stated, string, string, string][] = [
    ['lineTotal', 'BR-CO-10', 'BT-106', 'the sum of the line net amounts (BT-131)'],
    ['allowanceTotal', 'BR-CO-11', 'BT-107', 'the sum of the document level allowances (BT-92)'],
    ['chargeTotal', 'BR-CO-12', 'BT-108', 'the sum of the document level charges (BT-99)'],
    ['taxBasisTotal', 'BR-CO-13', 'BT-109', 'the line total (BT-106) − allowances (BT-107) + charges (BT-108)'],
    ['taxTotal', 'BR-CO-14', 'BT-110', 'the sum of the VAT category amounts (BT-117), each its basis × rate'],
    ['grandTotal', 'BR-CO-15', 'BT-112', 'the total without VAT (BT-109) + the VAT total (BT-110)'],
    ['duePayable', 'BR-CO-16', 'BT-115', 'the total with VAT (BT-112) − paid (BT-113) + rounding (BT-114)'],
  ];
  for (const [key, rule, bt, how] of rows) {
    const value = stated[key];
    if (value !== undefined && !sameAmount(value, totals[key])) {
      out.push({ rule, term: `${bt} totals.${key}`, message: `The stated ${bt} is ${formatAmount(value)}, but ${how} is ${formatAmount(totals[key])}.` });
    }
  }
}

export interface CheckedInvoice {
  calculated?: CalculatedInvoice;
  violations: RuleViolation[];
}

/** All checks, in order; the calculation only when the shape lets it run. */
export function checkEInvoice(model: unknown, profile: EInvoiceProfile): CheckedInvoice {
  const violations: RuleViolation[] = [];
  if (!checkShape(model, violations)) return { violations };
  checkBusinessRules(model, violations);
  checkProfileRules(model, profile, violations);
  const calculated = calculateInvoice(model);
  checkStatedTotals(calculated, violations);
  return { calculated, violations };
}
