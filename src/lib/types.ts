/**
 * The library's public types (`import type { ... } from 'imprint'`). Exact where the contract
 * is: a size is a DocumentSize (api.md A4), an orientation one of two words; the values are
 * checked at run time by the same rules as the CLI's flags and the API's fields. A document's
 * options are the engine's own (core/render-request.ts), so an option the engine gains is the
 * library's too.
 */
import type { Deterministic } from '../core/pdf/document-date.js';
import type { DocumentMetadata } from '../core/pdf/document-metadata.js';
import type { PdfaLevel } from '../core/pdf/pdfa.js';
import type { StampField } from '../core/pdf/stamp-options.js';
import type { EncryptField } from '../core/pdf/encrypt-options.js';
import type { EInvoiceProfile } from '../core/einvoice/model.js';
import type { EInvoiceFormat } from '../core/einvoice/profiles.js';
import type { RenderOptions as EngineRenderOptions } from '../core/render-request.js';

export type { Deterministic, DocumentMetadata, EInvoiceFormat, EInvoiceProfile, PdfaLevel };
export type { ErrorCode } from '../core/errors.js';

/** A named paper size (any letter case) or "<width><unit> <height><unit>" (api.md A4). */
export type NamedDocumentSize = 'A3' | 'A4' | 'A5' | 'letter' | 'legal' | 'a3' | 'a4' | 'a5' | 'Letter' | 'Legal' | 'LETTER' | 'LEGAL';
export type LengthUnit = 'in' | 'cm' | 'mm' | 'px';
export type DocumentSize = NamedDocumentSize | `${number}${LengthUnit} ${number}${LengthUnit}`;

export type Orientation = 'portrait' | 'landscape';

export interface ImprintOptions {
  /** The embedded store's folder: default IMPRINT_DATA_DIR, else the platform's data folder (as the CLI). */
  dataDir?: string;
  /** The Chrome or Chromium to start: default IMPRINT_BROWSER, else the system's and Puppeteer's (as the CLI). */
  browser?: string;
  /** An Imprint API (`imprint serve`): templates are published to, listed from and rendered by it. */
  apiUrl?: string;
  /** The API key for apiUrl. */
  apiKey?: string;
  /** generate's pages may reach this machine and private networks (the CLI's --allow-local). */
  allowLocal?: boolean;
}

type EngineEInvoice = NonNullable<EngineRenderOptions['einvoice']>;

/**
 * How a document is printed: the engine's options (api.md A1, Part B) but the result form, which
 * is always a PDF here. Narrower than the engine's where the contract is exact (the size).
 */
/**
 * A PDF to put before or after the document (docs/finishing.md#merging): fetched by URL under
 * the same rules as generate's pages (public addresses unless allowLocal; a service's policy in
 * remote mode), or given as bytes (a Uint8Array or Buffer, or base64) with an optional name for
 * its bookmark when the PDF has no Title.
 */
export type MergePart = { url: string } | { pdf: Uint8Array | string; name?: string };

/**
 * Sign with your own key, in this process, as the last step (docs/finishing.md#signatures), as
 * the CLI's --sign does: PAdES B-B, or B-T with `tsa`. The key is opened before anything renders,
 * so a wrong password rejects at once (USAGE); it never leaves this process, in remote mode
 * either: the service renders, and this process signs the PDF it gets back. A visible
 * `<Signature>` in an encrypted document is filled with the `encrypt` passwords of the same call.
 */
export interface OwnKeySignature {
  /** The PKCS#12 (.p12 / .pfx) file with the key, its certificate and CA chain: its bytes (a Uint8Array or Buffer) or its path. */
  p12: Uint8Array | string;
  /** The file's password; default none (''). Read it from where the app keeps its secrets. */
  password?: string;
  /** An RFC 3161 time-stamp authority's http(s) URL, e.g. http://timestamp.digicert.com: PAdES B-T. */
  tsa?: string;
}

/**
 * The team's signing key, held by the Imprint service the instance renders with (`imprint team
 * signing-key`; createImprint with apiUrl): true for B-B, `{ tsa }` for B-T. Only a published
 * template or a generate rendered by the service; on this machine, give your own key.
 */
export type TeamKeySignature = true | { tsa?: string };

export interface DocumentOptions extends Omit<EngineRenderOptions, 'format' | 'size' | 'einvoice' | 'prepend' | 'append' | 'stamp' | 'encrypt' | 'optimizeImages' | 'sign'> {
  /** Default: the template's own CSS page size, else A4. */
  size?: DocumentSize;
  /**
   * A Factur-X / ZUGFeRD invoice (a PDF/A-3b with the template's `einvoice` model as XML;
   * docs/einvoice.md): the CLI's --einvoice and --einvoice-profile, the profile en16931 by default.
   */
  einvoice?: Pick<EngineEInvoice, 'format'> & Partial<Pick<EngineEInvoice, 'profile'>>;
  /** PDFs before the document, in order, each with its own bookmark (the CLI's --prepend). */
  prepend?: MergePart[];
  /** PDFs after the document (the CLI's --append), e.g. the terms. */
  append?: MergePart[];
  /** A stamp over the pages, as the API's `stamp` (docs/finishing.md): "DRAFT", or { text | pdf (base64) | svg, pages?, position?, opacity?, rotate? }. */
  stamp?: StampField;
  /** AES-256 encryption, as the API's `encrypt` (docs/finishing.md): { userPassword?, ownerPassword?, permissions? }; not with pdfa or einvoice. */
  encrypt?: EncryptField;
  /** Smaller files (the CLI's --optimize-images; docs/templates.md#file-size): true for 150 dpi and JPEG quality 80, or either given. */
  optimizeImages?: boolean | Partial<NonNullable<EngineRenderOptions['optimizeImages']>>;
  /**
   * A PAdES signature over the whole finished PDF, made last: `{ p12, password?, tsa? }` with
   * your own key (OwnKeySignature), or true / `{ tsa }` with the service's team key (remote only).
   */
  sign?: OwnKeySignature | TeamKeySignature | false;
}

export interface RenderOptions extends DocumentOptions {
  /** A published version instead of the latest (not for a local file). */
  version?: number;
}

/** An e-invoice comes from a template's `einvoice` mapping: HTML and web pages take pdfa only. */
export type GenerateOptions = Omit<DocumentOptions, 'einvoice'>;

/** What generate prints: raw HTML, a web page, or HTML written into a web page (api.md A2). */
export type GenerateSource = { html: string; url?: string } | { url: string; html?: string };

export interface PublishOptions {
  /** Default: the component's static documentId, else the file name in kebab case. */
  id?: string;
}

export interface PublishedTemplate {
  id: string;
  version: number;
  publishedAt: string;
}

export interface ListedTemplate {
  id: string;
  /** The latest version. */
  version: number;
  publishedAt: string;
}

export interface Imprint {
  /**
   * A PDF of a published template (its id or UUID) or of a local template file (a path, bundled
   * now, not published). Without props: the template's PreviewProps.
   */
  render(idOrFile: string, props?: Record<string, unknown>, options?: RenderOptions): Promise<Uint8Array>;
  /** A PDF of raw HTML or a web page. */
  generate(source: GenerateSource, options?: GenerateOptions): Promise<Uint8Array>;
  /** Bundles a TSX template and publishes it as a new version. */
  publish(file: string, options?: PublishOptions): Promise<PublishedTemplate>;
  list(): Promise<ListedTemplate[]>;
  /** Stops the browser and its pool (and closes the store or the connection). */
  close(): Promise<void>;
}
