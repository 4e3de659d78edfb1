/**
 * What a CLI command and the library (src/lib) need from wherever templates live. The embedded
 * engine and the remote API client both answer it, so `publish`, `list`, `render` and `generate`
 * give the same thing in both modes.
 */
import type { Artifact } from '../core/artifact.js';
import type { RenderOptions } from '../core/render-request.js';
import type { HtmlSource } from '../core/render/render-html.js';
import type { RenderResult } from '../core/result-forms.js';
import type { EInvoiceProfile, EInvoiceSyntax } from '../core/einvoice/model.js';

/** `imprint einvoice`: which XML a template's `einvoice` mapping is written as. */
export interface EInvoiceXmlRequest {
  profile: EInvoiceProfile;
  syntax: EInvoiceSyntax;
}

export interface PublishedTemplate {
  id: string;
  uuid: string;
  version: number;
  publishedAt: string;
}

export interface ListedTemplate {
  id: string;
  latestVersion: number;
  publishedAt: string;
}

/** One published version, as `imprint versions` lists it. */
export interface TemplateVersionRow {
  version: number;
  publishedAt: string;
  bytes: number;
  artifactSha256: string;
  /** The API key id that published it; null when published locally or before it was recorded. */
  publishedBy: string | null;
  rollbackOf: number | null;
}

/** What a backend that renders on this machine can do besides rendering. */
export interface LocalBrowser {
  /** Starts Chromium now, so it boots while the command reads its input and opens the store. */
  prewarm(): void;
  /** Pages rendering at once (a batch's --concurrency). */
  setConcurrency(concurrency: number): void;
}

export interface Backend {
  /** Where this backend keeps things, for messages ("the embedded store in ~/.local/share/imprint"). */
  readonly description: string;
  /**
   * Present when pages render on this machine (the embedded engine): its browser can be started
   * ahead and its pool sized, a page's address is judged here, a batch runs here. Absent for an
   * Imprint API, which renders and judges pages itself and takes a batch as one job.
   */
  readonly localBrowser?: LocalBrowser;
  /** `meta.propsSchema`: the JSON Schema derived from the template's props type, stored with the version. */
  publish(templateId: string, artifact: Artifact, meta?: { propsSchema?: object }): Promise<PublishedTemplate>;
  /** The props schema of a published version (latest by default), null when it has none. Optional: not every backend serves it yet. */
  propsSchema?(idOrUuid: string, version?: number): Promise<object | null>;
  list(): Promise<ListedTemplate[]>;
  /** `version`: render that version instead of the latest (api.md Part E). */
  render(idOrUuid: string, props: unknown, options: RenderOptions, version?: number): Promise<{ result: RenderResult; usedPreviewProps: boolean }>;
  /** Every version of a template, oldest first. */
  versions(idOrUuid: string): Promise<{ id: string; versions: TemplateVersionRow[] }>;
  /** Publishes `version` again as the new latest version. */
  rollback(idOrUuid: string, version: number): Promise<PublishedTemplate & { rollbackOf: number }>;
  generate(source: HtmlSource, options: RenderOptions): Promise<RenderResult>;
  /** A published template's e-invoice XML (POST /api/documents/{id}/einvoice). */
  einvoice(idOrUuid: string, props: unknown, request: EInvoiceXmlRequest, version?: number): Promise<{ xml: string; usedPreviewProps: boolean }>;
  close(): Promise<void>;
}
