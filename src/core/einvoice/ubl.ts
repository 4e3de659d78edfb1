/**
 * The OASIS UBL 2.1 Invoice of a checked invoice, as Peppol BIS Billing 3.0 wants it (profile
 * en16931) or as XRechnung's UBL (profile xrechnung). Element order follows the UBL 2.1 schema's
 * sequences. UBL has no Factur-X profiles: MINIMUM to EXTENDED are CII only.
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { ImprintError } from '../errors.js';
import { effectiveRate, type CalculatedInvoice } from './calculate.js';
import { formatAmount, formatDecimal } from './decimal.js';
import type { EInvoiceAllowanceCharge, EInvoiceParty, EInvoiceProfile, EInvoiceVat } from './model.js';
import { PEPPOL_CUSTOMIZATION, PEPPOL_PROFILE, XRECHNUNG_GUIDELINE } from './profiles.js';

const NS = {
  xmlns: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  'xmlns:cac': 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  'xmlns:cbc': 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

function leaf(parent: XMLBuilder, name: string, value: string | undefined, attributes?: Record<string, string>): void {
  if (value === undefined || value.trim() === '') return;
  parent.ele(name, attributes).txt(value);
}

function taxCategory(parent: XMLBuilder, name: string, vat: EInvoiceVat, exemptionReason?: string): void {
  const category = parent.ele(name);
  category.ele('cbc:ID').txt(vat.category);
  // Peppol: no rate for O (not subject to VAT); every other category states one, 0 included.
  if (vat.category !== 'O') category.ele('cbc:Percent').txt(formatDecimal(effectiveRate(vat.category, vat.rate)));
  leaf(category, 'cbc:TaxExemptionReason', exemptionReason);
  category.ele('cac:TaxScheme').ele('cbc:ID').txt('VAT');
}

function party(parent: XMLBuilder, name: string, who: EInvoiceParty, role: 'seller' | 'buyer'): void {
  const node = parent.ele(name).ele('cac:Party');
  if (who.electronicAddress) node.ele('cbc:EndpointID', { schemeID: who.electronicAddress.scheme }).txt(who.electronicAddress.id);
  if (who.id) node.ele('cac:PartyIdentification').ele('cbc:ID').txt(who.id);
  if (who.tradingName) node.ele('cac:PartyName').ele('cbc:Name').txt(who.tradingName);
  const address = node.ele('cac:PostalAddress');
  leaf(address, 'cbc:StreetName', who.address.line1);
  leaf(address, 'cbc:AdditionalStreetName', who.address.line2);
  leaf(address, 'cbc:CityName', who.address.city);
  leaf(address, 'cbc:PostalZone', who.address.postcode);
  leaf(address, 'cbc:CountrySubentity', who.address.subdivision);
  if (who.address.line3) address.ele('cac:AddressLine').ele('cbc:Line').txt(who.address.line3);
  address.ele('cac:Country').ele('cbc:IdentificationCode').txt(who.address.country);
  if (who.vatId) {
    const scheme = node.ele('cac:PartyTaxScheme');
    scheme.ele('cbc:CompanyID').txt(who.vatId.replace(/\s+/g, ''));
    scheme.ele('cac:TaxScheme').ele('cbc:ID').txt('VAT');
  }
  if (role === 'seller' && who.taxNumber) {
    const scheme = node.ele('cac:PartyTaxScheme');
    scheme.ele('cbc:CompanyID').txt(who.taxNumber);
    scheme.ele('cac:TaxScheme').ele('cbc:ID').txt('FC');
  }
  const legal = node.ele('cac:PartyLegalEntity');
  legal.ele('cbc:RegistrationName').txt(who.name);
  leaf(legal, 'cbc:CompanyID', who.legalRegistrationId);
  if (who.contact && (who.contact.name || who.contact.phone || who.contact.email)) {
    const contact = node.ele('cac:Contact');
    leaf(contact, 'cbc:Name', who.contact.name);
    leaf(contact, 'cbc:Telephone', who.contact.phone);
    leaf(contact, 'cbc:ElectronicMail', who.contact.email);
  }
}

function allowanceCharge(parent: XMLBuilder, entry: EInvoiceAllowanceCharge, isCharge: boolean, currency: string): void {
  const node = parent.ele('cac:AllowanceCharge');
  node.ele('cbc:ChargeIndicator').txt(String(isCharge));
  leaf(node, 'cbc:AllowanceChargeReasonCode', entry.reasonCode);
  leaf(node, 'cbc:AllowanceChargeReason', entry.reason);
  node.ele('cbc:Amount', { currencyID: currency }).txt(formatAmount(entry.amount));
  if (entry.vat) taxCategory(node, 'cac:TaxCategory', entry.vat);
}

export function writeUbl(calculated: CalculatedInvoice, profile: EInvoiceProfile): string {
  if (profile !== 'en16931' && profile !== 'xrechnung') {
    throw new ImprintError('USAGE', `UBL has no ${profile} profile (Factur-X's profiles are CII only): use --syntax ubl with en16931 (Peppol BIS Billing 3.0) or xrechnung, or --syntax cii.`);
  }
  const { invoice, totals } = calculated;
  const currency = invoice.currency;
  const money = (parent: XMLBuilder, name: string, value: number) => parent.ele(name, { currencyID: currency }).txt(formatAmount(value));
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('Invoice', NS);
  root.ele('cbc:CustomizationID').txt(profile === 'xrechnung' ? XRECHNUNG_GUIDELINE : PEPPOL_CUSTOMIZATION);
  root.ele('cbc:ProfileID').txt(PEPPOL_PROFILE);
  root.ele('cbc:ID').txt(invoice.number);
  root.ele('cbc:IssueDate').txt(invoice.issueDate);
  leaf(root, 'cbc:DueDate', invoice.payment?.dueDate);
  root.ele('cbc:InvoiceTypeCode').txt(invoice.typeCode ?? '380');
  // Peppol allows one document note unless seller and buyer are both German (PEPPOL-EN16931-R002): joined, one paragraph a line.
  const notes = invoice.notes ?? [];
  const oneNote = profile === 'en16931' && !(invoice.seller.address.country === 'DE' && invoice.buyer.address.country === 'DE');
  for (const note of oneNote && notes.length > 1 ? [notes.join('\n')] : notes) root.ele('cbc:Note').txt(note);
  root.ele('cbc:DocumentCurrencyCode').txt(currency);
  leaf(root, 'cbc:BuyerReference', invoice.buyerReference);
  if (invoice.period) {
    const period = root.ele('cac:InvoicePeriod');
    period.ele('cbc:StartDate').txt(invoice.period.start);
    period.ele('cbc:EndDate').txt(invoice.period.end);
  }
  if (invoice.purchaseOrderReference) root.ele('cac:OrderReference').ele('cbc:ID').txt(invoice.purchaseOrderReference);
  if (invoice.contractReference) root.ele('cac:ContractDocumentReference').ele('cbc:ID').txt(invoice.contractReference);
  party(root, 'cac:AccountingSupplierParty', invoice.seller, 'seller');
  party(root, 'cac:AccountingCustomerParty', invoice.buyer, 'buyer');
  if (invoice.deliveryDate) root.ele('cac:Delivery').ele('cbc:ActualDeliveryDate').txt(invoice.deliveryDate);
  const payment = invoice.payment;
  if (payment) {
    const means = root.ele('cac:PaymentMeans');
    means.ele('cbc:PaymentMeansCode', payment.meansText ? { name: payment.meansText } : undefined).txt(payment.meansCode);
    leaf(means, 'cbc:PaymentID', payment.remittanceInformation);
    if (payment.iban) {
      const account = means.ele('cac:PayeeFinancialAccount');
      account.ele('cbc:ID').txt(payment.iban.replace(/\s+/g, '').toUpperCase());
      leaf(account, 'cbc:Name', payment.accountName);
      if (payment.bic) account.ele('cac:FinancialInstitutionBranch').ele('cbc:ID').txt(payment.bic);
    }
    if (payment.terms) root.ele('cac:PaymentTerms').ele('cbc:Note').txt(payment.terms);
  }
  for (const allowance of invoice.allowances ?? []) allowanceCharge(root, allowance, false, currency);
  for (const charge of invoice.charges ?? []) allowanceCharge(root, charge, true, currency);
  const taxTotal = root.ele('cac:TaxTotal');
  money(taxTotal, 'cbc:TaxAmount', totals.taxTotal);
  for (const entry of calculated.vat) {
    const subtotal = taxTotal.ele('cac:TaxSubtotal');
    money(subtotal, 'cbc:TaxableAmount', entry.basis);
    money(subtotal, 'cbc:TaxAmount', entry.tax);
    taxCategory(subtotal, 'cac:TaxCategory', { category: entry.category, rate: entry.rate }, entry.exemptionReason);
  }
  const sums = root.ele('cac:LegalMonetaryTotal');
  money(sums, 'cbc:LineExtensionAmount', totals.lineTotal);
  money(sums, 'cbc:TaxExclusiveAmount', totals.taxBasisTotal);
  money(sums, 'cbc:TaxInclusiveAmount', totals.grandTotal);
  if (invoice.allowances?.length) money(sums, 'cbc:AllowanceTotalAmount', totals.allowanceTotal);
  if (invoice.charges?.length) money(sums, 'cbc:ChargeTotalAmount', totals.chargeTotal);
  if (invoice.paidAmount) money(sums, 'cbc:PrepaidAmount', totals.paidAmount);
  if (invoice.roundingAmount) money(sums, 'cbc:PayableRoundingAmount', totals.roundingAmount);
  money(sums, 'cbc:PayableAmount', totals.duePayable);

  invoice.lines.forEach((line, index) => {
    const node = root.ele('cac:InvoiceLine');
    node.ele('cbc:ID').txt(line.id ?? String(index + 1));
    leaf(node, 'cbc:Note', line.note);
    node.ele('cbc:InvoicedQuantity', { unitCode: line.unitCode }).txt(formatDecimal(line.quantity));
    money(node, 'cbc:LineExtensionAmount', calculated.lineNet[index]!);
    for (const allowance of line.allowances ?? []) allowanceCharge(node, allowance, false, currency);
    for (const charge of line.charges ?? []) allowanceCharge(node, charge, true, currency);
    const item = node.ele('cac:Item');
    leaf(item, 'cbc:Description', line.description);
    item.ele('cbc:Name').txt(line.name);
    if (line.sellerItemId) item.ele('cac:SellersItemIdentification').ele('cbc:ID').txt(line.sellerItemId);
    taxCategory(item, 'cac:ClassifiedTaxCategory', line.vat);
    const price = node.ele('cac:Price');
    price.ele('cbc:PriceAmount', { currencyID: currency }).txt(formatDecimal(line.netPrice));
    if (line.baseQuantity !== undefined && line.baseQuantity !== 1) price.ele('cbc:BaseQuantity', { unitCode: line.unitCode }).txt(formatDecimal(line.baseQuantity));
  });
  return `${root.end({ prettyPrint: true })}\n`;
}
