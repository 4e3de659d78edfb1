/**
 * The rules of a render request (api.md A1/A2 and Part B), written once: the server checks
 * request bodies with them and the CLI checks its flags with them, so both faces accept and
 * refuse exactly the same things with the same words.
 */
import { ImprintError } from './errors.js';
import { checkDocumentSize, parseOrientation, type Orientation } from './page-size.js';
import { parseDeterministic, type Deterministic } from './pdf/document-date.js';
import { parseDocumentMetadata, type DocumentMetadata } from './pdf/document-metadata.js';
import { parsePdfaLevel, type PdfaLevel } from './pdf/pdfa.js';
import { parseFlatten } from './pdf/forms/flatten-option.js';
import type { EInvoiceProfile } from './einvoice/model.js';
import { parseEInvoiceFormat, parseEInvoiceProfile, type EInvoiceFormat } from './einvoice/profiles.js';
import { parseMergeParts, type MergePart } from './pdf/merge/parts.js';

export const OUTPUT_FORMATS = ['pdf', 'base64', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface RenderOptions {
  format: OutputFormat;
  /** A DocumentSize (api.md A4) as given, checked; parsed by the print step (render/print-pdf.ts). */
  size?: string;
  orientation?: Orientation;
  tagged?: boolean;
  /** Same input, same bytes: the PDF's dates come from the input, not the clock (docs/determinism.md). */
  deterministic?: Deterministic;
  /** Info fields over the template's own `metadata` (docs/determinism.md). */
  metadata?: DocumentMetadata;
  /** PDF/A-2b or -3b (docs/einvoice.md); an e-invoice implies 3b. */
  pdfa?: PdfaLevel;
  /** A Factur-X / ZUGFeRD PDF: the template's `einvoice` model as CII XML, embedded (docs/einvoice.md). */
  einvoice?: { format: EInvoiceFormat; profile: EInvoiceProfile };
  /** A template's `<Field>`s drawn into the pages instead of left fillable (docs/finishing.md, Forms). */
  flatten?: boolean;
  /** Documents before and after the rendered one, each by URL or as base64 (docs/finishing.md#merging). */
  prepend?: MergePart[];
  append?: MergePart[];
}

export function parseFormat(value: unknown): OutputFormat {
  if (typeof value === 'string' && (OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new ImprintError('USAGE', `Invalid format ${JSON.stringify(value)}: use one of ${OUTPUT_FORMATS.join(', ')}.`);
}

function requireString(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new ImprintError('USAGE', `Invalid ${field}: expected a string, got ${JSON.stringify(value)}.`);
  return value;
}

/**
 * The body fields parseRenderOptions reads. Its input is typed from this list, so a new option
 * cannot be read without being listed; a job body (jobs/parse-job.ts) accepts exactly these
 * besides its own fields.
 */
export const RENDER_OPTION_FIELDS = ['format', 'size', 'orientation', 'tagged', 'deterministic', 'metadata', 'pdfa', 'einvoice', 'einvoiceProfile', 'prepend', 'append', 'flatten'] as const;

/** Each field optional; absent fields keep the contract's defaults (pdf; size and orientation from the template). */
export function parseRenderOptions(input: Partial<Record<(typeof RENDER_OPTION_FIELDS)[number], unknown>>): RenderOptions {
  const options: RenderOptions = { format: input.format === undefined ? 'pdf' : parseFormat(input.format) };
  if (input.size !== undefined) options.size = checkDocumentSize(requireString('size', input.size));
  if (input.orientation !== undefined) options.orientation = parseOrientation(requireString('orientation', input.orientation));
  if (input.tagged !== undefined) {
    if (typeof input.tagged !== 'boolean') throw new ImprintError('USAGE', 'Invalid tagged: expected true or false.');
    options.tagged = input.tagged;
  }
  if (input.deterministic !== undefined) options.deterministic = parseDeterministic(input.deterministic);
  if (input.metadata !== undefined) options.metadata = parseDocumentMetadata(input.metadata);
  if (input.flatten !== undefined) options.flatten = parseFlatten(input.flatten);
  Object.assign(options, parseMergeParts(input));
  return Object.assign(options, parseArchival(input));
}

/** PDF/A and the e-invoice (request fields pdfa, einvoice, einvoiceProfile; the same CLI flags). */
export function parseArchival(input: { pdfa?: unknown; einvoice?: unknown; einvoiceProfile?: unknown }): Pick<RenderOptions, 'pdfa' | 'einvoice'> {
  const options: Pick<RenderOptions, 'pdfa' | 'einvoice'> = {};
  if (input.pdfa !== undefined) options.pdfa = parsePdfaLevel(input.pdfa);
  if (input.einvoice !== undefined) {
    options.einvoice = { format: parseEInvoiceFormat(input.einvoice), profile: input.einvoiceProfile === undefined ? 'en16931' : parseEInvoiceProfile(input.einvoiceProfile) };
    if (options.pdfa === '2b') throw new ImprintError('USAGE', 'A Factur-X / ZUGFeRD invoice is a PDF/A-3b (PDF/A-2b allows no embedded XML): drop pdfa, or set it to 3b.');
    options.pdfa = '3b';
  } else if (input.einvoiceProfile !== undefined) {
    throw new ImprintError('USAGE', 'einvoiceProfile goes with einvoice: add einvoice "factur-x" (or "zugferd").');
  }
  return options;
}

const describeType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);

export function parseProps(value: unknown): Record<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new ImprintError('INVALID_INPUT', `Invalid props: expected a JSON object such as {"name": "ACME"}, got ${describeType(value)}.`);
}
