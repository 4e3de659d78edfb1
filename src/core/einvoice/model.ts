/**
 * The invoice a template describes, in EN 16931's terms (the European norm behind Factur-X,
 * ZUGFeRD, XRechnung and Peppol BIS). Each field names its business term (BT-n) or group
 * (BG-n) so a developer can look it up in the norm or in docs/einvoice.md. A template's
 * `einvoice` static maps its own props to this shape; Imprint computes the totals, checks
 * the business rules and writes the XML (CII or UBL) from it.
 *
 * Amounts are numbers in the invoice currency's major unit (120.5 = 120.50); rates are
 * percentages (21 = 21 %); dates are ISO 8601 calendar dates (YYYY-MM-DD).
 */

/** The Factur-X / ZUGFeRD profiles, and XRechnung (Germany's CIUS of EN 16931). */
export const EINVOICE_PROFILES = ['minimum', 'basic-wl', 'basic', 'en16931', 'extended', 'xrechnung'] as const;
export type EInvoiceProfile = (typeof EINVOICE_PROFILES)[number];

/** The two syntaxes of EN 16931: UN/CEFACT Cross Industry Invoice and OASIS UBL 2.1. */
export const EINVOICE_SYNTAXES = ['cii', 'ubl'] as const;
export type EInvoiceSyntax = (typeof EINVOICE_SYNTAXES)[number];

/**
 * VAT category codes (UNTDID 5305, BT-151 / BT-118): S standard rate, Z zero rated, E exempt,
 * AE reverse charge, K intra-community supply, G export outside the EU, O outside the scope
 * of VAT, L Canary Islands (IGIC), M Ceuta and Melilla (IPSI).
 */
export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];

export interface EInvoiceVat {
  /** BT-151 (line), BT-95 (allowance), BT-102 (charge): the VAT category code. */
  category: VatCategory;
  /** BT-152 / BT-96 / BT-103: the VAT rate in percent; 0 (or absent) for E, AE, K, G, O. */
  rate?: number;
}

/** BG-5 (seller) / BG-8 (buyer): the postal address. */
export interface EInvoiceAddress {
  /** BT-35 / BT-50: street and number. */
  line1?: string;
  /** BT-36 / BT-51. */
  line2?: string;
  /** BT-162 / BT-163. */
  line3?: string;
  /** BT-37 / BT-52. */
  city?: string;
  /** BT-38 / BT-53. */
  postcode?: string;
  /** BT-39 / BT-54: region, state or province. */
  subdivision?: string;
  /** BT-40 / BT-55: ISO 3166-1 alpha-2 country code, e.g. "DE". */
  country: string;
}

/** BG-6 (seller) / BG-9 (buyer): whom to contact. */
export interface EInvoiceContact {
  /** BT-41 / BT-56: a person or department. */
  name?: string;
  /** BT-42 / BT-57. */
  phone?: string;
  /** BT-43 / BT-58. */
  email?: string;
}

/** BT-34 / BT-49: where the party receives e-invoices, with its scheme (EAS code list: "EM" e-mail, "0088" GLN, "9930" German VAT...). */
export interface EInvoiceElectronicAddress {
  scheme: string;
  id: string;
}

/** BG-4 (seller) / BG-7 (buyer). */
export interface EInvoiceParty {
  /** BT-27 / BT-44: the registered name. */
  name: string;
  /** BT-28 / BT-45: a trading name, if different. */
  tradingName?: string;
  /** BT-29 / BT-46: an identifier the other party knows it by (supplier number, customer number). */
  id?: string;
  /** BT-30 / BT-47: the company's legal registration (e.g. a commercial register number, SIREN). */
  legalRegistrationId?: string;
  /** BT-31 / BT-48: the VAT identifier with its country prefix, e.g. "DE123456789". */
  vatId?: string;
  /** BT-32 (seller only): the local tax number (German "Steuernummer"). */
  taxNumber?: string;
  address: EInvoiceAddress;
  contact?: EInvoiceContact;
  electronicAddress?: EInvoiceElectronicAddress;
}

/** BG-20 / BG-21 (document level) and BG-27 / BG-28 (line level). */
export interface EInvoiceAllowanceCharge {
  /** BT-92 / BT-99 / BT-136 / BT-141: the amount, without VAT. */
  amount: number;
  /** BT-97 / BT-104 / BT-139 / BT-144: why, in words. */
  reason?: string;
  /** BT-98 / BT-105 / BT-140 / BT-145: why, as a code (UNTDID 5189 allowances, 7161 charges). */
  reasonCode?: string;
  /** Document level only (BT-95 / BT-102): its VAT category and rate. */
  vat?: EInvoiceVat;
}

/** BG-25: one invoice line. */
export interface EInvoiceLine {
  /** BT-126: the line's identifier; its position (1, 2, ...) when absent. */
  id?: string;
  /** BT-127: a note on the line. */
  note?: string;
  /** BT-153: the item's name. */
  name: string;
  /** BT-154: the item's description. */
  description?: string;
  /** BT-155: the seller's article number. */
  sellerItemId?: string;
  /** BT-129: the invoiced quantity. */
  quantity: number;
  /** BT-130: the unit, as a UN/ECE Recommendation 20 code: "HUR" hour, "C62" piece, "DAY", "KGM", "MTR"... */
  unitCode: string;
  /** BT-146: the net price of one item (or of `baseQuantity` items), after any price discount. */
  netPrice: number;
  /** BT-149: how many units the price is for (default 1). */
  baseQuantity?: number;
  vat: EInvoiceVat;
  allowances?: EInvoiceAllowanceCharge[];
  charges?: EInvoiceAllowanceCharge[];
  /**
   * BT-131: the line's net amount as the template shows it. Optional: Imprint computes it
   * (quantity × price ÷ base quantity + charges − allowances, rounded to cents) and refuses a
   * stated amount that differs.
   */
  netAmount?: number;
}

/** BG-16 and BT-20: how and when to pay. */
export interface EInvoicePayment {
  /** BT-81: UNTDID 4461 code: "58" SEPA credit transfer, "30" credit transfer, "59" SEPA direct debit, "48" card, "10" cash. */
  meansCode: string;
  /** BT-82: the means in words. */
  meansText?: string;
  /** BT-83: the reference the buyer quotes with the transfer. */
  remittanceInformation?: string;
  /** BT-84: the IBAN (or account number) to pay to; spaces are removed. */
  iban?: string;
  /** BT-85. */
  accountName?: string;
  /** BT-86: the bank's BIC. */
  bic?: string;
  /** BT-20: the terms in words, e.g. "Net 30". */
  terms?: string;
  /** BT-9: the due date. */
  dueDate?: string;
}

/**
 * The totals as the template shows them (BG-22). Each is optional: Imprint computes every total
 * by EN 16931's rules, and refuses a stated one that differs, naming the rule (BR-CO-10...).
 */
export interface EInvoiceStatedTotals {
  /** BT-106: the sum of line net amounts (BR-CO-10). */
  lineTotal?: number;
  /** BT-107: the sum of document-level allowances (BR-CO-11). */
  allowanceTotal?: number;
  /** BT-108: the sum of document-level charges (BR-CO-12). */
  chargeTotal?: number;
  /** BT-109: the total without VAT (BR-CO-13). */
  taxBasisTotal?: number;
  /** BT-110: the VAT total (BR-CO-14). */
  taxTotal?: number;
  /** BT-112: the total with VAT (BR-CO-15). */
  grandTotal?: number;
  /** BT-115: the amount due (BR-CO-16). */
  duePayable?: number;
}

/** The invoice (EN 16931's semantic model, the parts templates need). */
export interface EInvoice {
  /** BT-1: the invoice number. */
  number: string;
  /** BT-2: the issue date. */
  issueDate: string;
  /** BT-3: UNTDID 1001 type code: "380" invoice (default), "381" credit note, "384" corrected, "389" self-billed, "326" partial. */
  typeCode?: string;
  /** BT-5: ISO 4217 currency code, e.g. "EUR". */
  currency: string;
  /** BT-10: the buyer's reference (a German public buyer's Leitweg-ID); required by XRechnung. */
  buyerReference?: string;
  /** BT-13: the buyer's purchase order number. */
  purchaseOrderReference?: string;
  /** BT-12: the contract's reference. */
  contractReference?: string;
  /** BT-22: notes on the invoice. */
  notes?: string[];
  seller: EInvoiceParty;
  buyer: EInvoiceParty;
  /** BT-72: the date goods or services were delivered. */
  deliveryDate?: string;
  /** BG-14: the invoicing period (BT-73 start, BT-74 end). */
  period?: { start: string; end: string };
  lines: EInvoiceLine[];
  /** BG-20: allowances on the whole document (a discount). */
  allowances?: EInvoiceAllowanceCharge[];
  /** BG-21: charges on the whole document (shipping). */
  charges?: EInvoiceAllowanceCharge[];
  payment?: EInvoicePayment;
  /** BT-120, per VAT category: why no VAT is due (required for E, AE, K, G, O). */
  vatExemptionReasons?: Partial<Record<VatCategory, string>>;
  /** BT-113: what was paid already. */
  paidAmount?: number;
  /** BT-114: rounding added to the amount due. */
  roundingAmount?: number;
  totals?: EInvoiceStatedTotals;
}

/** A template's `einvoice` static: its props to the invoice model, run in the page like the template. */
export type EInvoiceMapping<Props> = (props: Props) => EInvoice;
