import { Document, Footer, Header, KeepTogether, PageNumber, TotalPages, type TemplateMetadata } from 'imprint/react';
import './letter.css';

/** The organisation sending the letter (printed in the letterhead and footer). */
export interface LetterSender {
  /** Organisation name. */
  company: string;
  /** Postal address, one line per entry. */
  addressLines: string[];
  phone?: string;
  email?: string;
  website?: string;
  /** Company registration / VAT details shown in the footer. */
  registration?: string;
}

/** The addressee, printed in the address block. */
export interface LetterRecipient {
  name: string;
  /** Job title of the addressee. */
  title?: string;
  company?: string;
  /** Postal address, one line per entry. */
  addressLines: string[];
}

/** The person signing the letter. */
export interface LetterSignatory {
  name: string;
  title: string;
}

export interface LetterProps {
  sender: LetterSender;
  recipient: LetterRecipient;
  /** Letter date, ISO 8601 calendar date (YYYY-MM-DD). */
  date: string;
  /** Optional place printed before the date, e.g. "Amsterdam". */
  place?: string;
  /** Optional "Our reference" value. */
  reference?: string;
  /** Subject line, printed in bold above the salutation. */
  subject: string;
  /** e.g. "Dear Ms Jansen,". */
  salutation: string;
  /** Body text, one paragraph per entry. */
  paragraphs: string[];
  /** e.g. "Kind regards,". */
  closing: string;
  signatory: LetterSignatory;
  /** Enclosures listed under the signature. */
  enclosures?: string[];
  /** BCP 47 locale used for the date (default "en-GB"). */
  locale?: string;
}

function formatDate(iso: string, locale: string): string {
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(date);
}

function Monogram() {
  return (
    <svg className="ltr-mark" viewBox="0 0 40 40" width="34" height="34" aria-hidden="true">
      <circle cx="20" cy="20" r="19" fill="none" stroke="#7a5c3e" strokeWidth="1.5" />
      <path d="M11 27 C15 14, 19 12, 20 12 C21 12, 25 14, 29 27" fill="none" stroke="#7a5c3e" strokeWidth="1.8" strokeLinecap="round" />
      <path d="M14.5 21.5 H25.5" stroke="#7a5c3e" strokeWidth="1.5" strokeLinecap="round" />
    </svg>
  );
}

export default function Letter(props: LetterProps) {
  const locale = props.locale ?? 'en-GB';
  const { sender, recipient } = props;

  const footerLine = [sender.company, sender.email, sender.website, sender.registration].filter(Boolean).join('  ·  ');
  const furniture = { fontSize: '7pt', color: '#7c746b' };

  return (
    <Document size="A4" margin="16mm 22mm 20mm 25mm" className="ltr">
      {/* The letterhead opens page 1; continuation pages are numbered instead. */}
      <Header pages="first" />
      <Header right={<>Page <PageNumber /> of <TotalPages /></>} style={furniture} />
      {/* In the page margin, in the letter's own font (Lora): the Footer loads it for the margin too. */}
      <Footer center={footerLine} style={{ ...furniture, borderTop: '1px solid #d8cfc4', verticalAlign: 'top', paddingTop: '3mm' }} />

      <header className="ltr-letterhead">
        <div className="ltr-brand">
          <Monogram />
          <div className="ltr-company">{sender.company}</div>
        </div>
        <div className="ltr-sender-address">
          {sender.addressLines.map((line, i) => (
            <div key={i}>{line}</div>
          ))}
          {sender.phone ? <div>{sender.phone}</div> : null}
        </div>
      </header>

      <section className="ltr-head">
        <address className="ltr-recipient">
          <div className="ltr-return">
            {sender.company} · {sender.addressLines.join(' · ')}
          </div>
          <div className="ltr-recipient-name">{recipient.name}</div>
          {recipient.title ? <div>{recipient.title}</div> : null}
          {recipient.company ? <div>{recipient.company}</div> : null}
          {recipient.addressLines.map((line, i) => (
            <div key={i}>{line}</div>
          ))}
        </address>
        <dl className="ltr-meta">
          <dt>Date</dt>
          <dd>
            {props.place ? `${props.place}, ` : ''}
            {formatDate(props.date, locale)}
          </dd>
          {props.reference ? (
            <>
              <dt>Our reference</dt>
              <dd>{props.reference}</dd>
            </>
          ) : null}
        </dl>
      </section>

      <main className="ltr-body">
        <h1 className="ltr-subject">{props.subject}</h1>
        <p className="ltr-salutation">{props.salutation}</p>
        {props.paragraphs.map((paragraph, i) => (
          <p key={i}>{paragraph}</p>
        ))}

        {/* Closing, signature space and name stay on one page. */}
        <KeepTogether className="ltr-signoff">
          <p className="ltr-closing">{props.closing}</p>
          <div className="ltr-signature-space" />
          <div className="ltr-signatory-name">{props.signatory.name}</div>
          <div className="ltr-signatory-title">
            {props.signatory.title}, {sender.company}
          </div>
        </KeepTogether>

        {props.enclosures && props.enclosures.length > 0 ? (
          <div className="ltr-enclosures">
            <span className="ltr-enclosures-label">Enclosures</span>
            <ul>
              {props.enclosures.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </main>
    </Document>
  );
}

Letter.documentId = 'letter';

// The PDF's title and language: what a screen reader announces and reads the document in.
Letter.metadata = (props: LetterProps): TemplateMetadata => ({ title: props.subject, language: props.locale ?? 'en-GB' });

Letter.PreviewProps = {
  sender: {
    company: 'Aldridge & Moss Architects',
    addressLines: ['Prinsengracht 455', '1016 HN Amsterdam', 'Netherlands'],
    phone: '+31 20 555 0198',
    email: 'studio@aldridgemoss.example',
  },
  recipient: {
    name: 'Ms Eva Jansen',
    company: 'Jansen Property Group',
    addressLines: ['Coolsingel 40', '3011 AD Rotterdam', 'Netherlands'],
  },
  date: '2025-11-14',
  place: 'Amsterdam',
  subject: 'Confirmation of our meeting',
  salutation: 'Dear Ms Jansen,',
  paragraphs: [
    'Thank you for taking the time to meet us last week. As agreed, we will send the revised floor plans by the end of the month.',
  ],
  closing: 'Kind regards,',
  signatory: { name: 'Thomas Aldridge', title: 'Managing Partner' },
} satisfies LetterProps;
