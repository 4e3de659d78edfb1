/** The request and response shapes of the contract (api.md Part A) and of Part C (docs/api.md). */
import type { Artifact } from '../core/artifact.js';
import type { OutputFormat } from '../core/render-request.js';

export interface OutputFields {
  format?: OutputFormat;
  /** A DocumentSize string (api.md A4). */
  size?: string;
  orientation?: 'portrait' | 'landscape';
  /**
   * This service's extension, not in api.md Part A: a tagged (accessible) PDF. Sent only when
   * true, so a request without it is exactly the contract's.
   */
  tagged?: boolean;
  /** An extension: same input, same bytes; a number fixes the dates (SOURCE_DATE_EPOCH's seconds). */
  deterministic?: boolean | number;
  /** An extension: the PDF's Info fields, over the template's own. */
  metadata?: { title?: string; author?: string; subject?: string; keywords?: string[] | string; language?: string; creator?: string };
  /** An extension (docs/einvoice.md): PDF/A-2b or -3b. */
  pdfa?: '2b' | '3b';
  /** An extension (A1 only): a Factur-X / ZUGFeRD PDF from the template's `einvoice` mapping. */
  einvoice?: 'factur-x' | 'zugferd';
  einvoiceProfile?: 'minimum' | 'basic-wl' | 'basic' | 'en16931' | 'extended' | 'xrechnung';
  /** An extension (docs/finishing.md#merging): PDFs before and after the rendered one, each fetched by URL or sent as base64. */
  prepend?: MergePartField[];
  append?: MergePartField[];
  /** An extension (templates): the template's <Field>s drawn into the pages, no fillable form left. */
  flatten?: boolean;
}

/** A part to merge: a PDF the service fetches (under its network policy), or the PDF itself as base64 with an optional name for the outline. */
export type MergePartField = { url: string } | { pdf: string; name?: string };

export interface DocumentRequest extends OutputFields {
  props: Record<string, unknown>;
  /** api.md Part E: a version to render instead of the latest. */
  version?: number;
}

/** POST /api/documents/{id}/einvoice (docs/einvoice.md). */
export interface EInvoiceRequest {
  props: Record<string, unknown>;
  syntax?: 'cii' | 'ubl';
  profile?: 'minimum' | 'basic-wl' | 'basic' | 'en16931' | 'extended' | 'xrechnung';
  version?: number;
}

export interface GenerateRequest extends OutputFields {
  html?: string;
  url?: string;
}

/** A3, as the client hands it back. */
export type DocumentResult = { format: 'pdf'; pdf: Buffer } | { format: 'base64'; body: { data: string } } | { format: 'json'; body: { url: string } };

export interface PublishRequest {
  id: string;
  artifact: Artifact;
  /** The JSON Schema of the template's props, checked by every render of the version. */
  propsSchema?: object;
}

export interface Published {
  id: string;
  uuid: string;
  version: number;
  publishedAt: string;
}

/** A template as GET /api/templates lists it: the store's summary, answered as it is (server/routes/templates.ts). */
export type { TemplateSummary } from '../core/store/types.js';

export interface TemplateDetails {
  id: string;
  uuid: string;
  createdAt: string;
  versions: {
    version: number;
    publishedAt: string;
    bytes: number;
    artifactSha256: string;
    sourceName: string | null;
    /** The API key id that published it (services from before this was recorded omit it). */
    publishedBy?: string | null;
    rollbackOf?: number | null;
  }[];
}

/** api.md Part E: the answer of a rollback, a publish that names the version it republished. */
export interface RolledBack extends Published {
  rollbackOf: number;
}

export interface Me {
  team: { name: string; generationLimit: number; usedThisMonth: number; month: string };
}

export interface Health {
  status: 'ok' | 'unavailable';
  service: 'ok';
  browser: string;
  version?: string;
  error?: string;
}
