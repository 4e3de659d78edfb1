/**
 * A starter invoice. Edit it with `imprint dev` running: the preview reloads on every save.
 * The props type below is the template's contract: `imprint publish` stores it as a JSON
 * Schema, and every render checks its props against it before printing.
 */
import { Document, Footer, Header, KeepTogether, PageNumber, Spacer, TotalPages } from 'imprint/react';
import type { EInvoice } from 'imprint/einvoice';
import './invoice.css';

export interface InvoiceLine {
  description: string;
  quantity: number;
  /** Price per unit, in major currency units. */
  unitPrice: number;
}

export interface InvoiceProps {
  /** Printed as the invoice number, e.g. "INV-0001". */
  number: string;
  /** ISO 8601 date, e.g. "2025-11-03". */
  date: string;
  customer: {
    name: string;
    addressLines: string[];
    /** ISO 3166-1 country code ("GB"), for the e-invoice; the address lines are what is printed. */
    country?: string;
    /** The customer's VAT number, if it has one. */
    vatId?: string;
  };
  lines: InvoiceLine[];
  /** ISO 4217 currency code, e.g. "EUR". */
  currency: string;
  /** Tax rate as a fraction: 0.21 for 21 %. */
  taxRate: number;
}

export default function Invoice(props: InvoiceProps) {
  const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: props.currency });
  const subtotal = props.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);
  const tax = Math.round(subtotal * props.taxRate * 100) / 100;

  return (
    <Document size="A4" margin="18mm 16mm">
      {/* Page furniture in the margins: nothing on page 1's header, numbers on every page. */}
      <Header pages="first" />
      <Header left={`Invoice ${props.number}`} right={props.customer.name} style={{ color: '#66788a' }} />
      <Footer left="Acme Ltd · 1 Example Street · hello@acme.example" right={<>Page <PageNumber /> of <TotalPages /></>} style={{ color: '#66788a' }} />

      <div className="top">
        {/* Files in templates/static/ are served at /static/ and packed into the published template. */}
        <img src="/static/logo.svg" alt="Acme" width={120} height={32} />
        <div style={{ textAlign: 'right' }}>
          <h1>Invoice</h1>
          <div>{props.number}</div>
          <div className="muted">{props.date}</div>
        </div>
      </div>

      <Spacer size="10mm" />
      <div className="muted">Billed to</div>
      <strong>{props.customer.name}</strong>
      {props.customer.addressLines.map((line) => (
        <div key={line}>{line}</div>
      ))}
      <Spacer size="8mm" />

      {/* The header row is printed again on every page the table continues on. */}
      <table>
        <thead>
          <tr>
            <th>Description</th>
            <th className="num">Quantity</th>
            <th className="num">Unit price</th>
            <th className="num">Amount</th>
          </tr>
        </thead>
        <tbody>
          {props.lines.map((line, i) => (
            <tr key={i}>
              <td>{line.description}</td>
              <td className="num">{line.quantity}</td>
              <td className="num">{money.format(line.unitPrice)}</td>
              <td className="num">{money.format(line.quantity * line.unitPrice)}</td>
            </tr>
          ))}
        </tbody>
      </table>

      {/* Never split the totals across two pages. */}
      <KeepTogether>
        <Spacer size="6mm" />
        <table className="totals">
          <tbody>
            <tr>
              <td>Subtotal</td>
              <td className="num">{money.format(subtotal)}</td>
            </tr>
            <tr>
              <td>Tax ({Math.round(props.taxRate * 100)} %)</td>
              <td className="num">{money.format(tax)}</td>
            </tr>
            <tr className="total">
              <td>Total</td>
              <td className="num">{money.format(subtotal + tax)}</td>
            </tr>
          </tbody>
        </table>
      </KeepTogether>
    </Document>
  );
}

/** The PDF's Info fields (title, author, subject, keywords, language), here from the props. */
Invoice.metadata = (props: InvoiceProps) => ({ title: `Invoice ${props.number}`, author: 'Acme Ltd', subject: `Invoice for ${props.customer.name}`, language: 'en-GB' });

/**
 * The e-invoice of these props (EN 16931: `imprint render invoice --einvoice factur-x`, or the XML
 * alone with `imprint einvoice`). Imprint computes the totals by the norm and refuses a mapping
 * whose stated amounts differ from it; docs/einvoice.md lists every field and its business term.
 */
Invoice.einvoice = (props: InvoiceProps): EInvoice => {
  const subtotal = props.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);
  const tax = Math.round(subtotal * props.taxRate * 100) / 100;
  return {
    number: props.number,
    issueDate: props.date,
    currency: props.currency,
    seller: {
      name: 'Acme Ltd',
      vatId: 'GB123456789',
      address: { line1: '1 Example Street', city: 'London', postcode: 'EC1A 1BB', country: 'GB' },
      contact: { email: 'hello@acme.example' },
    },
    buyer: {
      name: props.customer.name,
      vatId: props.customer.vatId,
      address: { line1: props.customer.addressLines[0], line2: props.customer.addressLines[1], country: props.customer.country ?? '' },
    },
    // Unit code C62 is "one" (a piece); HUR is an hour, DAY a day (UN/ECE Recommendation 20).
    lines: props.lines.map((line) => ({ name: line.description, quantity: line.quantity, unitCode: 'C62', netPrice: line.unitPrice, vat: { category: 'S', rate: Math.round(props.taxRate * 10000) / 100 } })),
    totals: { lineTotal: subtotal, taxTotal: tax, grandTotal: subtotal + tax, duePayable: subtotal + tax },
  };
};

/** What `imprint dev` and `imprint check` render when no props file is given. */
Invoice.PreviewProps = {
  number: 'INV-0001',
  date: '2025-11-03',
  customer: { name: 'Bluebird Coffee Ltd', addressLines: ['22 Harbour Road', 'Bristol BS1 5TT', 'United Kingdom'], country: 'GB' },
  lines: [
    { description: 'Brand workshop', quantity: 1, unitPrice: 1800 },
    { description: 'Label design', quantity: 12, unitPrice: 95 },
  ],
  currency: 'GBP',
  taxRate: 0.2,
} satisfies InvoiceProps;
