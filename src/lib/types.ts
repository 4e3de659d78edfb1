/**
 * The library's public types (`import type { ... } from 'imprint'`). Exact where the contract
 * is: a size is a DocumentSize (api.md A4), an orientation one of two words; the values are
 * checked at run time by the same rules as the CLI's flags and the API's fields.
 */
import type { Deterministic } from '../core/pdf/document-date.js';
import type { DocumentMetadata } from '../core/pdf/document-metadata.js';

export type { Deterministic, DocumentMetadata };
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

/** How a document is printed: the fields of a render request (api.md A1, Part B). */
export interface DocumentOptions {
  /** Default: the template's own CSS page size, else A4. */
  size?: DocumentSize;
  orientation?: Orientation;
  /** A tagged (accessible) PDF. */
  tagged?: boolean;
  /** Same input, same bytes (docs/determinism.md): true, or a Unix time in seconds for the dates. */
  deterministic?: Deterministic;
  /** The PDF's Info fields, over the template's own. */
  metadata?: DocumentMetadata;
}

export interface RenderOptions extends DocumentOptions {
  /** A published version instead of the latest (not for a local file). */
  version?: number;
}

export type GenerateOptions = DocumentOptions;

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
