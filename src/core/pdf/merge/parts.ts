/**
 * The `prepend` and `append` request fields (the CLI's --prepend/--append, a job's options):
 * documents put before and after the rendered one. A part is either fetched by URL, under the
 * same network policy as A2's `url`, or sent in the request as base64: the service keeps no
 * store of a team's own files (it keeps template versions and short-lived downloads only), so
 * the request carries what it merges, bounded by the body's size limit (docs/finishing.md).
 *
 * The parsed form stays the wire form (base64, not bytes): options travel as JSON to the warm
 * renderer, into a job's record and to a remote service unchanged; the merge step decodes.
 */
import { ImprintError } from '../../errors.js';
import { MAX_MERGE_PARTS } from '../../limits/merge-limits.js';

export type MergePart = { url: string } | { pdf: string; name?: string };

export interface MergeParts {
  prepend?: MergePart[];
  append?: MergePart[];
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MAX_NAME_LENGTH = 200;

const invalid = (message: string) => new ImprintError('INVALID_INPUT', message);

/** A part as a job shows it (job-view.ts): its URL, or its name and size, never its bytes. */
export type ShownPart = { url: string } | { name?: string; bytes: number };

export interface ShownParts {
  prepend?: ShownPart[];
  append?: ShownPart[];
}

const shown = (part: MergePart): ShownPart => ('url' in part ? { url: part.url } : { ...(part.name === undefined ? {} : { name: part.name }), bytes: Buffer.byteLength(part.pdf, 'base64') });

/** What a job keeps to show of its parts once their bytes are dropped (undefined: it has none). */
export function shownParts(parts: MergeParts): ShownParts | undefined {
  if (!parts.prepend && !parts.append) return undefined;
  return { ...(parts.prepend ? { prepend: parts.prepend.map(shown) } : {}), ...(parts.append ? { append: parts.append.map(shown) } : {}) };
}

/** Decodes a part's base64, which its parse has checked. */
export const partBytes = (part: { pdf: string }): Buffer => Buffer.from(part.pdf, 'base64');

/** `https://example.org/terms.pdf` is named terms.pdf in the outline when the PDF has no title. */
export function partFileName(part: MergePart, label: string): string {
  if ('pdf' in part) return part.name ?? label;
  const last = new URL(part.url).pathname.split('/').filter(Boolean).pop();
  return last ? decodeURIComponent(last) : new URL(part.url).host;
}

function parsePart(value: unknown, label: string): MergePart {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(`Invalid ${label}: expected {"url": "https://..."} or {"pdf": "<base64>", "name": "cover.pdf"}.`);
  }
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !['url', 'pdf', 'name'].includes(key));
  if (unknown.length > 0) throw invalid(`Invalid ${label}: unknown field ${JSON.stringify(unknown[0])}; a part has "url", or "pdf" (base64) and an optional "name".`);
  if ((fields.url === undefined) === (fields.pdf === undefined)) throw invalid(`Invalid ${label}: give exactly one of "url" (a PDF to fetch) or "pdf" (the PDF as base64).`);
  if (fields.url !== undefined) {
    if (typeof fields.url !== 'string' || !/^https?:\/\//i.test(fields.url) || !URL.canParse(fields.url)) {
      throw invalid(`Invalid ${label}.url: give an absolute http or https address of a PDF, e.g. https://example.org/terms.pdf.`);
    }
    if (fields.name !== undefined) throw invalid(`Invalid ${label}: "name" goes with "pdf"; a fetched part is named by its title, else its URL's file name.`);
    return { url: fields.url };
  }
  if (typeof fields.pdf !== 'string' || !BASE64.test(fields.pdf) || fields.pdf.length % 4 !== 0) throw invalid(`Invalid ${label}.pdf: expected the PDF's bytes as standard base64.`);
  if (!partBytes({ pdf: fields.pdf.slice(0, 12) }).subarray(0, 5).equals(Buffer.from('%PDF-'))) throw invalid(`Invalid ${label}.pdf: the bytes are not a PDF (a PDF starts with %PDF-).`);
  if (fields.name !== undefined && (typeof fields.name !== 'string' || fields.name.length === 0 || fields.name.length > MAX_NAME_LENGTH)) {
    throw invalid(`Invalid ${label}.name: expected a non-empty string of at most ${MAX_NAME_LENGTH} characters (the part's outline entry when the PDF has no title).`);
  }
  return fields.name === undefined ? { pdf: fields.pdf } : { pdf: fields.pdf, name: fields.name };
}

function parseList(value: unknown, field: 'prepend' | 'append'): MergePart[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalid(`Invalid ${field}: expected an array of parts, e.g. [{"url": "https://example.org/cover.pdf"}].`);
  return value.map((part, index) => parsePart(part, `${field}[${index}]`));
}

/** The request's `prepend` and `append`, checked; at most MAX_MERGE_PARTS in all. */
export function parseMergeParts(input: { prepend?: unknown; append?: unknown }): MergeParts {
  const parts: MergeParts = {};
  const prepend = parseList(input.prepend, 'prepend');
  const append = parseList(input.append, 'append');
  const count = (prepend?.length ?? 0) + (append?.length ?? 0);
  if (count > MAX_MERGE_PARTS) throw invalid(`Too many parts to merge: ${count} in prepend and append, at most ${MAX_MERGE_PARTS}. Merge some of them beforehand (imprint merge).`);
  if (prepend?.length) parts.prepend = prepend;
  if (append?.length) parts.append = append;
  return parts;
}
