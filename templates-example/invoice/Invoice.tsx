import { Document, Footer, KeepTogether, PageNumber, TotalPages, type TemplateMetadata } from 'imprint/react';
import { invoiceAmounts, toEInvoice } from './einvoice';
import './invoice.css';

/** A postal address; the country is an ISO 3166-1 alpha-2 code ("NL"), printed by name. */
export interface InvoiceAddress {
  street: string;
  /** A second address line (building, department). */
  extra?: string;
  postcode: string;
  city: string;
  country: string;
}

/** A postal party (the seller issuing the invoice, or the customer receiving it). */
export interface InvoiceParty {
  /** Company or person name. */
  name: string;
  address: InvoiceAddress;
  /** A person or department to contact. */
  contact?: string;
  email?: string;
  phone?: string;
  /** VAT / tax identification number. */
  taxId?: string;
  /** Where the party receives e-invoices (Peppol participant id): an EAS scheme ("9944" Dutch VAT, "9930" German VAT, "0088" GLN) and the id. */
  endpoint?: { scheme: string; id: string };
}

/** One billable line of the invoice. The line amount is quantity × unitPrice. */
export interface InvoiceLineItem {
  description: string;
  /** Optional second line shown under the description in smaller type. */
  details?: string;
  quantity: number;
  /** Unit label shown after the quantity, e.g. "h" or "pcs". */
  unit?: string;
  /** Price per unit, in major currency units (e.g. 120.5 = 120.50). */
  unitPrice: number;
}

/** Where and how to pay. */
export interface InvoicePayment {
  /** Payment terms, e.g. "Net 30". */
  terms: string;
  bankName: string;
  accountHolder: string;
  iban: string;
  bic: string;
  /** Reference the customer should quote with the transfer (defaults to the invoice number). */
  reference?: string;
}

export interface InvoiceProps {
  /** Invoice number as printed, e.g. "INV-2025-0142". */
  invoiceNo: string;
  /** Issue date, ISO 8601 calendar date (YYYY-MM-DD). */
  issueDate: string;
  /** Payment due date, ISO 8601 calendar date (YYYY-MM-DD). */
  dueDate: string;
  /** Optional supply / service period, free text (e.g. "1–31 October 2025"). */
  servicePeriod?: string;
  /** The customer's reference for this invoice (e-invoicing's BT-10; a German public buyer's Leitweg-ID). */
  buyerReference?: string;
  /** Customer's purchase order number, if any. */
  purchaseOrder?: string;
  /** ISO 4217 currency code, e.g. "USD" or "EUR". */
  currency: string;
  /** BCP 47 locale used for number and date formatting (default "en-US"). */
  locale?: string;
  seller: InvoiceParty;
  customer: InvoiceParty;
  items: InvoiceLineItem[];
  /** Tax rate as a fraction, e.g. 0.2 for 20 %. */
  taxRate: number;
  /** Label of the tax line (default "Tax"). */
  taxLabel?: string;
  payment: InvoicePayment;
  /** Free-text notes printed under the totals, one paragraph per entry. */
  notes?: string[];
}

/**
 * Intl formatters are slow to build (a large share of this template's own render time) and a
 * page renders invoice after invoice: each one is built once per locale and options. A
 * formatter holds none of a document's data, so keeping it from one render to the next leaks
 * nothing between documents.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

function formatDate(iso: string, locale: string): string {
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  let format = dateFormats.get(locale);
  if (!format) dateFormats.set(locale, (format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })));
  return format.format(date);
}

function Logo() {
  return (
    <svg className="inv-logo" viewBox="0 0 48 48" width="44" height="44" aria-hidden="true">
      <rect x="0" y="0" width="48" height="48" rx="10" fill="#1f3a5f" />
      <path d="M12 34 L24 12 L36 34 Z" fill="none" stroke="#ffffff" strokeWidth="3.5" strokeLinejoin="round" />
      <circle cx="24" cy="27" r="3.5" fill="#f2a541" />
    </svg>
  );
}

const regionNames = new Map<string, Intl.DisplayNames>();
function countryName(code: string, locale: string): string {
  let names = regionNames.get(locale);
  if (!names) regionNames.set(locale, (names = new Intl.DisplayNames([locale], { type: 'region' })));
  return names.of(code) ?? code;
}

function PartyBlock({ label, party, locale }: { label: string; party: InvoiceParty; locale: string }) {
  const address = party.address;
  return (
    <div className="inv-party">
      <div className="inv-label">{label}</div>
      <div className="inv-party-name">{party.name}</div>
      {party.contact ? <div>{party.contact}</div> : null}
      <div>{address.street}</div>
      {address.extra ? <div>{address.extra}</div> : null}
      <div>
        {address.postcode} {address.city}
      </div>
      <div>{countryName(address.country, locale)}</div>
      {party.email ? <div>{party.email}</div> : null}
      {party.phone ? <div>{party.phone}</div> : null}
      {party.taxId ? <div className="inv-muted">Tax ID: {party.taxId}</div> : null}
    </div>
  );
}

export default function Invoice(props: InvoiceProps) {
  const locale = props.locale ?? 'en-US';
  const money = numberFormat(locale, { style: 'currency', currency: props.currency });
  const qty = numberFormat(locale, { maximumFractionDigits: 2 });
  const percent = numberFormat(locale, { style: 'percent', maximumFractionDigits: 2 });

  // The same amounts the e-invoice states (einvoice.ts), so the page and the XML agree.
  const { lines: amounts, subtotal, tax, total } = invoiceAmounts(props);
  const lines = props.items.map((item, i) => ({ ...item, amount: amounts[i]! }));
  const reference = props.payment.reference ?? props.invoiceNo;

  const sellerLine = [props.seller.name, props.seller.email, props.seller.phone, props.seller.taxId ? `Tax ID ${props.seller.taxId}` : undefined]
    .filter(Boolean)
    .join(' · ');

  return (
    <Document size="A4" margin="15mm 16mm 18mm" className="inv">
      {/* In the bottom margin of every page, so a long invoice carries it on each sheet. */}
      <Footer left={sellerLine} right={<>Page <PageNumber /> of <TotalPages /></>} style={{ fontSize: '7.5pt', color: '#56677a' }} />

      <header className="inv-header">
        <div className="inv-brand">
          <Logo />
          <div>
            <div className="inv-seller-name">{props.seller.name}</div>
            {props.seller.email ? <div className="inv-muted">{props.seller.email}</div> : null}
          </div>
        </div>
        <div className="inv-title-block">
          <h1 className="inv-title">Invoice</h1>
          <div className="inv-number">{props.invoiceNo}</div>
        </div>
      </header>

      <section className="inv-meta">
        <PartyBlock label="Billed to" party={props.customer} locale={locale} />
        <PartyBlock label="From" party={props.seller} locale={locale} />
        <dl className="inv-facts">
          <dt>Invoice no.</dt>
          <dd>{props.invoiceNo}</dd>
          <dt>Issue date</dt>
          <dd>{formatDate(props.issueDate, locale)}</dd>
          <dt>Due date</dt>
          <dd>{formatDate(props.dueDate, locale)}</dd>
          {props.servicePeriod ? (
            <>
              <dt>Service period</dt>
              <dd>{props.servicePeriod}</dd>
            </>
          ) : null}
          {props.buyerReference ? (
            <>
              <dt>Your reference</dt>
              <dd>{props.buyerReference}</dd>
            </>
          ) : null}
          {props.purchaseOrder ? (
            <>
              <dt>PO number</dt>
              <dd>{props.purchaseOrder}</dd>
            </>
          ) : null}
        </dl>
      </section>

      <table className="inv-items">
        <thead>
          <tr>
            <th className="inv-col-desc">Description</th>
            <th className="inv-num">Quantity</th>
            <th className="inv-num">Unit price</th>
            <th className="inv-num">Amount</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, i) => (
            <tr key={i}>
              <td className="inv-col-desc">
                <div>{line.description}</div>
                {line.details ? <div className="inv-details">{line.details}</div> : null}
              </td>
              <td className="inv-num">
                {qty.format(line.quantity)}
                {line.unit ? ` ${line.unit}` : ''}
              </td>
              <td className="inv-num">{money.format(line.unitPrice)}</td>
              <td className="inv-num">{money.format(line.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>

      {/* Payment details and totals belong together: moved whole to the next page if they do not fit. */}
      <KeepTogether className="inv-bottom">
        <div className="inv-payment">
          <div className="inv-label">Payment</div>
          <p>
            <strong>{props.payment.terms}</strong> — please pay by {formatDate(props.dueDate, locale)}.
          </p>
          <dl className="inv-bank">
            <dt>Bank</dt>
            <dd>{props.payment.bankName}</dd>
            <dt>Account holder</dt>
            <dd>{props.payment.accountHolder}</dd>
            <dt>IBAN</dt>
            <dd>{props.payment.iban}</dd>
            <dt>BIC / SWIFT</dt>
            <dd>{props.payment.bic}</dd>
            <dt>Reference</dt>
            <dd>{reference}</dd>
          </dl>
        </div>
        <table className="inv-totals">
          <tbody>
            <tr>
              <th>Subtotal</th>
              <td>{money.format(subtotal)}</td>
            </tr>
            <tr>
              <th>
                {props.taxLabel ?? 'Tax'} ({percent.format(props.taxRate)})
              </th>
              <td>{money.format(tax)}</td>
            </tr>
            <tr className="inv-grand-total">
              <th>Total due</th>
              <td>{money.format(total)}</td>
            </tr>
          </tbody>
        </table>
      </KeepTogether>

      {props.notes && props.notes.length > 0 ? (
        <section className="inv-notes">
          <div className="inv-label">Notes</div>
          {props.notes.map((note, i) => (
            <p key={i}>{note}</p>
          ))}
        </section>
      ) : null}
    </Document>
  );
}

Invoice.documentId = 'invoice';

/** The e-invoice (Factur-X, XRechnung) of these props: `imprint render invoice --einvoice factur-x`. */
Invoice.einvoice = toEInvoice;

// The PDF's title and language: what a screen reader announces and reads the document in.
Invoice.metadata = (props: InvoiceProps): TemplateMetadata => ({ title: `Invoice ${props.invoiceNo}`, language: props.locale ?? 'en-US' });

Invoice.PreviewProps = {
  invoiceNo: 'INV-2025-0007',
  issueDate: '2025-03-03',
  dueDate: '2025-04-02',
  currency: 'EUR',
  locale: 'en-IE',
  seller: {
    name: 'Northwind Studio B.V.',
    address: { street: 'Keizersgracht 210', postcode: '1016 DX', city: 'Amsterdam', country: 'NL' },
    email: 'billing@northwind.example',
    taxId: 'NL862541379B01',
  },
  customer: {
    name: 'Bluebird Coffee B.V.',
    address: { street: 'Oudegracht 88', postcode: '3511 AV', city: 'Utrecht', country: 'NL' },
  },
  items: [
    { description: 'Brand identity workshop', quantity: 1, unitPrice: 1800 },
    { description: 'Packaging design', details: 'Three label variants', quantity: 12, unit: 'h', unitPrice: 95 },
  ],
  taxRate: 0.21,
  taxLabel: 'VAT',
  payment: {
    terms: 'Net 30',
    bankName: 'ING Bank N.V.',
    accountHolder: 'Northwind Studio B.V.',
    iban: 'NL20 INGB 0001 2345 67',
    bic: 'INGBNL2A',
  },
  notes: ['Thank you for your business.'],
} satisfies InvoiceProps;
