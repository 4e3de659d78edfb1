/**
 * The UN/CEFACT Cross Industry Invoice (D16B, as EN 16931 binds it) of a checked invoice:
 * the XML a Factur-X / ZUGFeRD PDF embeds, and XRechnung's CII form. Element order follows
 * the schema's sequences; each profile writes only what its schema (Factur-X 1.07 XSDs) allows:
 * MINIMUM the header and totals, BASIC WL no lines, BASIC no contacts or item descriptions.
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { CalculatedInvoice } from './calculate.js';
import { formatAmount, formatDecimal } from './decimal.js';
import type { EInvoiceAllowanceCharge, EInvoiceParty, EInvoiceProfile, EInvoiceVat } from './model.js';
import { effectiveRate } from './calculate.js';
import { PROFILES } from './profiles.js';

const NS = {
  'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/** A child with text; nothing when the value is absent or empty. */
function leaf(parent: XMLBuilder, name: string, value: string | undefined, attributes?: Record<string, string>): void {
  if (value === undefined || value.trim() === '') return;
  parent.ele(name, attributes).txt(value);
}

/** YYYY-MM-DD as CII's format 102 (YYYYMMDD). */
function date(parent: XMLBuilder, name: string, iso: string | undefined): void {
  if (!iso) return;
  parent.ele(name).ele('udt:DateTimeString', { format: '102' }).txt(iso.replaceAll('-', ''));
}

const compactIban = (iban: string) => iban.replace(/\s+/g, '').toUpperCase();

interface Level {
  minimum: boolean;
  /** EN 16931 and above: contacts, descriptions, notes on lines. */
  full: boolean;
  lines: boolean;
}

function party(parent: XMLBuilder, name: string, who: EInvoiceParty, level: Level, role: 'seller' | 'buyer'): void {
  const node = parent.ele(name);
  if (!level.minimum) leaf(node, 'ram:ID', who.id);
  leaf(node, 'ram:Name', who.name);
  if (who.legalRegistrationId || (who.tradingName && !level.minimum)) {
    const legal = node.ele('ram:SpecifiedLegalOrganization');
    leaf(legal, 'ram:ID', who.legalRegistrationId);
    if (!level.minimum) leaf(legal, 'ram:TradingBusinessName', who.tradingName);
  }
  if (level.full && who.contact && (who.contact.name || who.contact.phone || who.contact.email)) {
    const contact = node.ele('ram:DefinedTradeContact');
    leaf(contact, 'ram:PersonName', who.contact.name);
    if (who.contact.phone) contact.ele('ram:TelephoneUniversalCommunication').ele('ram:CompleteNumber').txt(who.contact.phone);
    if (who.contact.email) contact.ele('ram:EmailURIUniversalCommunication').ele('ram:URIID').txt(who.contact.email);
  }
  // MINIMUM carries the seller's country only, and no buyer address at all.
  if (!(level.minimum && role === 'buyer')) {
    const address = node.ele('ram:PostalTradeAddress');
    if (!level.minimum) {
      leaf(address, 'ram:PostcodeCode', who.address.postcode);
      leaf(address, 'ram:LineOne', who.address.line1);
      leaf(address, 'ram:LineTwo', who.address.line2);
      leaf(address, 'ram:LineThree', who.address.line3);
      leaf(address, 'ram:CityName', who.address.city);
    }
    leaf(address, 'ram:CountryID', who.address.country);
    if (!level.minimum) leaf(address, 'ram:CountrySubDivisionName', who.address.subdivision);
  }
  if (!level.minimum && who.electronicAddress) node.ele('ram:URIUniversalCommunication').ele('ram:URIID', { schemeID: who.electronicAddress.scheme }).txt(who.electronicAddress.id);
  // MINIMUM names the buyer by name and legal registration only.
  if (who.vatId && !(level.minimum && role === 'buyer')) node.ele('ram:SpecifiedTaxRegistration').ele('ram:ID', { schemeID: 'VA' }).txt(who.vatId.replace(/\s+/g, ''));
  if (role === 'seller' && who.taxNumber) node.ele('ram:SpecifiedTaxRegistration').ele('ram:ID', { schemeID: 'FC' }).txt(who.taxNumber);
}

function tradeTax(parent: XMLBuilder, name: string, vat: EInvoiceVat): void {
  const tax = parent.ele(name);
  tax.ele('ram:TypeCode').txt('VAT');
  tax.ele('ram:CategoryCode').txt(vat.category);
  tax.ele('ram:RateApplicablePercent').txt(formatDecimal(effectiveRate(vat.category, vat.rate)));
}

function allowanceCharge(parent: XMLBuilder, entry: EInvoiceAllowanceCharge, isCharge: boolean, documentLevel: boolean): void {
  const node = parent.ele('ram:SpecifiedTradeAllowanceCharge');
  node.ele('ram:ChargeIndicator').ele('udt:Indicator').txt(String(isCharge));
  node.ele('ram:ActualAmount').txt(formatAmount(entry.amount));
  leaf(node, 'ram:ReasonCode', entry.reasonCode);
  leaf(node, 'ram:Reason', entry.reason);
  if (documentLevel && entry.vat) tradeTax(node, 'ram:CategoryTradeTax', entry.vat);
}

export function writeCii(calculated: CalculatedInvoice, profile: EInvoiceProfile): string {
  const { invoice, totals } = calculated;
  const spec = PROFILES[profile];
  const level: Level = { minimum: profile === 'minimum', full: ['en16931', 'extended', 'xrechnung'].includes(profile), lines: spec.lines };
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('rsm:CrossIndustryInvoice', NS);

  const context = root.ele('rsm:ExchangedDocumentContext');
  // BT-23: XRechnung, like Peppol, names the business process.
  if (profile === 'xrechnung') context.ele('ram:BusinessProcessSpecifiedDocumentContextParameter').ele('ram:ID').txt('urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
  context.ele('ram:GuidelineSpecifiedDocumentContextParameter').ele('ram:ID').txt(spec.guideline);

  const document = root.ele('rsm:ExchangedDocument');
  document.ele('ram:ID').txt(invoice.number);
  document.ele('ram:TypeCode').txt(invoice.typeCode ?? '380');
  date(document, 'ram:IssueDateTime', invoice.issueDate);
  if (!level.minimum) for (const note of invoice.notes ?? []) document.ele('ram:IncludedNote').ele('ram:Content').txt(note);

  const transaction = root.ele('rsm:SupplyChainTradeTransaction');
  if (level.lines) {
    invoice.lines.forEach((line, index) => {
      const item = transaction.ele('ram:IncludedSupplyChainTradeLineItem');
      const lineDocument = item.ele('ram:AssociatedDocumentLineDocument');
      lineDocument.ele('ram:LineID').txt(line.id ?? String(index + 1));
      if (level.full && line.note) lineDocument.ele('ram:IncludedNote').ele('ram:Content').txt(line.note);
      const product = item.ele('ram:SpecifiedTradeProduct');
      if (level.full) leaf(product, 'ram:SellerAssignedID', line.sellerItemId);
      product.ele('ram:Name').txt(line.name);
      if (level.full) leaf(product, 'ram:Description', line.description);
      const price = item.ele('ram:SpecifiedLineTradeAgreement').ele('ram:NetPriceProductTradePrice');
      price.ele('ram:ChargeAmount').txt(formatDecimal(line.netPrice));
      if (line.baseQuantity !== undefined && line.baseQuantity !== 1) price.ele('ram:BasisQuantity', { unitCode: line.unitCode }).txt(formatDecimal(line.baseQuantity));
      item.ele('ram:SpecifiedLineTradeDelivery').ele('ram:BilledQuantity', { unitCode: line.unitCode }).txt(formatDecimal(line.quantity));
      const settlement = item.ele('ram:SpecifiedLineTradeSettlement');
      tradeTax(settlement, 'ram:ApplicableTradeTax', line.vat);
      for (const allowance of line.allowances ?? []) allowanceCharge(settlement, allowance, false, false);
      for (const charge of line.charges ?? []) allowanceCharge(settlement, charge, true, false);
      settlement.ele('ram:SpecifiedTradeSettlementLineMonetarySummation').ele('ram:LineTotalAmount').txt(formatAmount(calculated.lineNet[index]!));
    });
  }

  const agreement = transaction.ele('ram:ApplicableHeaderTradeAgreement');
  leaf(agreement, 'ram:BuyerReference', invoice.buyerReference);
  party(agreement, 'ram:SellerTradeParty', invoice.seller, level, 'seller');
  party(agreement, 'ram:BuyerTradeParty', invoice.buyer, level, 'buyer');
  if (invoice.purchaseOrderReference) agreement.ele('ram:BuyerOrderReferencedDocument').ele('ram:IssuerAssignedID').txt(invoice.purchaseOrderReference);
  if (!level.minimum && invoice.contractReference) agreement.ele('ram:ContractReferencedDocument').ele('ram:IssuerAssignedID').txt(invoice.contractReference);

  const delivery = transaction.ele('ram:ApplicableHeaderTradeDelivery');
  if (!level.minimum && invoice.deliveryDate) date(delivery.ele('ram:ActualDeliverySupplyChainEvent'), 'ram:OccurrenceDateTime', invoice.deliveryDate);

  const settlement = transaction.ele('ram:ApplicableHeaderTradeSettlement');
  const payment = invoice.payment;
  if (!level.minimum) leaf(settlement, 'ram:PaymentReference', payment?.remittanceInformation);
  settlement.ele('ram:InvoiceCurrencyCode').txt(invoice.currency);
  if (!level.minimum) {
    if (payment) {
      const means = settlement.ele('ram:SpecifiedTradeSettlementPaymentMeans');
      means.ele('ram:TypeCode').txt(payment.meansCode);
      if (level.full) leaf(means, 'ram:Information', payment.meansText);
      if (payment.iban) {
        const account = means.ele('ram:PayeePartyCreditorFinancialAccount');
        account.ele('ram:IBANID').txt(compactIban(payment.iban));
        if (level.full) leaf(account, 'ram:AccountName', payment.accountName);
      }
      if (level.full && payment.bic) means.ele('ram:PayeeSpecifiedCreditorFinancialInstitution').ele('ram:BICID').txt(payment.bic);
    }
    for (const entry of calculated.vat) {
      const tax = settlement.ele('ram:ApplicableTradeTax');
      tax.ele('ram:CalculatedAmount').txt(formatAmount(entry.tax));
      tax.ele('ram:TypeCode').txt('VAT');
      leaf(tax, 'ram:ExemptionReason', entry.exemptionReason);
      tax.ele('ram:BasisAmount').txt(formatAmount(entry.basis));
      tax.ele('ram:CategoryCode').txt(entry.category);
      tax.ele('ram:RateApplicablePercent').txt(formatDecimal(entry.rate));
    }
    if (invoice.period) {
      const period = settlement.ele('ram:BillingSpecifiedPeriod');
      date(period, 'ram:StartDateTime', invoice.period.start);
      date(period, 'ram:EndDateTime', invoice.period.end);
    }
    for (const allowance of invoice.allowances ?? []) allowanceCharge(settlement, allowance, false, true);
    for (const charge of invoice.charges ?? []) allowanceCharge(settlement, charge, true, true);
    if (payment && (payment.terms || payment.dueDate)) {
      const terms = settlement.ele('ram:SpecifiedTradePaymentTerms');
      leaf(terms, 'ram:Description', payment.terms);
      date(terms, 'ram:DueDateDateTime', payment.dueDate);
    }
  }
  const sums = settlement.ele('ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  if (!level.minimum) {
    sums.ele('ram:LineTotalAmount').txt(formatAmount(totals.lineTotal));
    if (invoice.charges?.length) sums.ele('ram:ChargeTotalAmount').txt(formatAmount(totals.chargeTotal));
    if (invoice.allowances?.length) sums.ele('ram:AllowanceTotalAmount').txt(formatAmount(totals.allowanceTotal));
  }
  sums.ele('ram:TaxBasisTotalAmount').txt(formatAmount(totals.taxBasisTotal));
  sums.ele('ram:TaxTotalAmount', { currencyID: invoice.currency }).txt(formatAmount(totals.taxTotal));
  if (!level.minimum && invoice.roundingAmount) sums.ele('ram:RoundingAmount').txt(formatAmount(totals.roundingAmount));
  sums.ele('ram:GrandTotalAmount').txt(formatAmount(totals.grandTotal));
  if (!level.minimum && invoice.paidAmount) sums.ele('ram:TotalPrepaidAmount').txt(formatAmount(totals.paidAmount));
  sums.ele('ram:DuePayableAmount').txt(formatAmount(totals.duePayable));

  return `${root.end({ prettyPrint: true })}\n`;
}
