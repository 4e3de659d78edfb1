/**
 * `imprint/einvoice`: what a template imports to type its `einvoice` static, and what a Node
 * app uses to compute, check and write an invoice's XML without a browser.
 */
export type {
  EInvoice,
  EInvoiceAddress,
  EInvoiceAllowanceCharge,
  EInvoiceContact,
  EInvoiceElectronicAddress,
  EInvoiceLine,
  EInvoiceMapping,
  EInvoiceParty,
  EInvoicePayment,
  EInvoiceProfile,
  EInvoiceStatedTotals,
  EInvoiceSyntax,
  EInvoiceVat,
  VatCategory,
} from './model.js';
export { EINVOICE_PROFILES, EINVOICE_SYNTAXES, VAT_CATEGORIES } from './model.js';
export { calculateInvoice, type CalculatedInvoice, type CalculatedTotals, type VatBreakdown } from './calculate.js';
export { checkEInvoice, type RuleViolation } from './rules.js';
export { prepareEInvoice, writeEInvoiceXml } from './prepare.js';
