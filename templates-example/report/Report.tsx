import { Document, Footer, Header, KeepTogether, PageNumber, TotalPages, type TemplateMetadata } from 'imprint/react';
import './report.css';

/** Fulfilment status of a shipment. */
export type ShipmentStatus = 'Delivered' | 'In transit' | 'Delayed' | 'Returned';

/** One row of the shipment ledger. */
export interface ReportRow {
  /** Shipment reference, e.g. "SHP-10421". */
  id: string;
  /** Ship date, ISO 8601 calendar date (YYYY-MM-DD). */
  date: string;
  /** Sales region. */
  region: string;
  /** Customer name. */
  customer: string;
  /** Product or SKU description. */
  product: string;
  /** Number of units shipped. */
  units: number;
  /** Net revenue of the shipment, in major currency units. */
  revenue: number;
  status: ShipmentStatus;
}

/** A headline figure shown in the summary cards. */
export interface ReportMetric {
  label: string;
  /** Pre-formatted value, e.g. "+12.4 %" or "1,284". */
  value: string;
  /** Optional short comment under the value. */
  note?: string;
}

export interface ReportProps {
  title: string;
  subtitle?: string;
  /** Author or issuing department. */
  author: string;
  /** Report date, ISO 8601 calendar date (YYYY-MM-DD). */
  date: string;
  /** Executive summary, one paragraph per entry. */
  summary: string[];
  /** Headline figures shown under the summary (up to four fit on one line). */
  metrics?: ReportMetric[];
  /** ISO 4217 currency code used for revenue figures. */
  currency: string;
  /** BCP 47 locale used for number and date formatting (default "en-US"). */
  locale?: string;
  /** Caption printed above the data table. */
  tableTitle?: string;
  rows: ReportRow[];
}

function formatDate(iso: string, locale: string, style: 'long' | 'short'): string {
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  const options: Intl.DateTimeFormatOptions =
    style === 'long'
      ? { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }
      : { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' };
  return new Intl.DateTimeFormat(locale, options).format(date);
}

function statusClass(status: ShipmentStatus): string {
  return `rpt-status rpt-status-${status.toLowerCase().replace(/\s+/g, '-')}`;
}

export default function Report(props: ReportProps) {
  const locale = props.locale ?? 'en-US';
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency: props.currency });
  const integer = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });

  const totalUnits = props.rows.reduce((sum, row) => sum + row.units, 0);
  const totalRevenue = Math.round(props.rows.reduce((sum, row) => sum + row.revenue, 0) * 100) / 100;

  const furniture = { fontSize: '8pt', color: '#56677a' };

  return (
    <Document size="A4" margin="20mm 15mm" className="rpt">
      {/* The title block opens page 1, so the running header starts on page 2. */}
      <Header left={props.title} right={formatDate(props.date, locale, 'long')} style={furniture} />
      <Header pages="first" />
      <Footer center={<>Page <PageNumber /> of <TotalPages /></>} style={furniture} />

      <header className="rpt-header">
        <div className="rpt-kicker">
          {props.author} · {formatDate(props.date, locale, 'long')}
        </div>
        <h1 className="rpt-title">{props.title}</h1>
        {props.subtitle ? <p className="rpt-subtitle">{props.subtitle}</p> : null}
      </header>

      <section className="rpt-summary">
        <h2>Summary</h2>
        {props.summary.map((paragraph, i) => (
          <p key={i}>{paragraph}</p>
        ))}
      </section>

      {props.metrics && props.metrics.length > 0 ? (
        <KeepTogether className="rpt-metrics">
          {props.metrics.map((metric, i) => (
            <div className="rpt-metric" key={i}>
              <div className="rpt-metric-label">{metric.label}</div>
              <div className="rpt-metric-value">{metric.value}</div>
              {metric.note ? <div className="rpt-metric-note">{metric.note}</div> : null}
            </div>
          ))}
        </KeepTogether>
      ) : null}

      <section className="rpt-data">
        <h2>{props.tableTitle ?? 'Detail'}</h2>
        {/* A real <thead>: printed again at the top of every page the table continues on. */}
        <table className="rpt-table">
          <thead>
            <tr>
              <th className="rpt-col-id">Shipment</th>
              <th className="rpt-col-date">Date</th>
              <th>Region</th>
              <th>Customer</th>
              <th>Product</th>
              <th className="rpt-num">Units</th>
              <th className="rpt-num">Revenue</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => (
              <tr key={row.id}>
                <td className="rpt-col-id">{row.id}</td>
                <td className="rpt-col-date">{formatDate(row.date, locale, 'short')}</td>
                <td>{row.region}</td>
                <td>{row.customer}</td>
                <td>{row.product}</td>
                <td className="rpt-num">{integer.format(row.units)}</td>
                <td className="rpt-num">{money.format(row.revenue)}</td>
                <td>
                  <span className={statusClass(row.status)}>{row.status}</span>
                </td>
              </tr>
            ))}
            {/* The total is the last body row, not a <tfoot>: Chromium repeats tfoot on every page. */}
            <tr className="rpt-total">
              <td colSpan={5}>
                Total · {integer.format(props.rows.length)} shipments
              </td>
              <td className="rpt-num">{integer.format(totalUnits)}</td>
              <td className="rpt-num">{money.format(totalRevenue)}</td>
              <td />
            </tr>
          </tbody>
        </table>
      </section>
    </Document>
  );
}

Report.documentId = 'report';

// The PDF's title and language: what a screen reader announces and reads the document in.
Report.metadata = (props: ReportProps): TemplateMetadata => ({ title: props.title, language: props.locale ?? 'en-US' });

Report.PreviewProps = {
  title: 'Quarterly Shipment Report',
  subtitle: 'Q3 2025 · EMEA and North America',
  author: 'Operations Analytics',
  date: '2025-10-06',
  summary: [
    'Shipments grew steadily through the quarter while the share of delayed deliveries fell below two percent.',
  ],
  metrics: [
    { label: 'Shipments', value: '3', note: 'sample data' },
    { label: 'On-time rate', value: '98.1 %' },
  ],
  currency: 'USD',
  locale: 'en-US',
  tableTitle: 'Shipment ledger',
  rows: [
    { id: 'SHP-10001', date: '2025-07-01', region: 'EMEA', customer: 'Bluebird Coffee', product: 'Pallet racking kit', units: 12, revenue: 4380, status: 'Delivered' },
    { id: 'SHP-10002', date: '2025-07-02', region: 'North America', customer: 'Harbor Freightworks', product: 'Barcode scanner X2', units: 40, revenue: 7960, status: 'In transit' },
    { id: 'SHP-10003', date: '2025-07-03', region: 'EMEA', customer: 'Nordlicht Retail', product: 'Shrink-wrap film', units: 300, revenue: 1845.5, status: 'Delayed' },
  ],
} satisfies ReportProps;
