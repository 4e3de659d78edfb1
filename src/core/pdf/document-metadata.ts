/**
 * A document's Info fields: what a template's `metadata` static and a request's `metadata`
 * object may set. Both are untrusted input (a template runs as customer code in the page, a
 * body comes off the wire), so both are read by the one parser here.
 */
import { ImprintError, type ErrorCode } from '../errors.js';
import { forbiddenXmlCharacter } from '../xml-chars.js';

export interface DocumentMetadata {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string[];
  /** A BCP 47 language tag ("en-GB"): the catalog's /Lang, which screen readers use. */
  language?: string;
  /** The application that made the content; Imprint by default. */
  creator?: string;
}

export const METADATA_FIELDS = ['title', 'author', 'subject', 'keywords', 'language', 'creator'] as const;

/** Enough for any real title; a bound, so a metadata field cannot grow a PDF without end. */
const MAX_FIELD_LENGTH = 2000;

/** Loose enough for every real tag (en, en-GB, zh-Hant-TW, de-CH-1996), strict enough to refuse prose. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

const describeType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);

/**
 * `what` names the source in messages ("metadata", "The template's metadata"); `code` is the
 * error's (USAGE for a request or a flag, RENDER_FAILED for a template that returned nonsense).
 * Keywords may be one string (split on commas) or an array of strings.
 */
export function parseDocumentMetadata(value: unknown, what = 'metadata', code: ErrorCode = 'USAGE'): DocumentMetadata {
  if (value === undefined || value === null) return {};
  const fail = (text: string) => new ImprintError(code, `Invalid ${what}: ${text}`);
  if (typeof value !== 'object' || Array.isArray(value)) throw fail(`expected an object such as {"title": "Invoice 42"}, got ${describeType(value)}.`);
  const input = value as Record<string, unknown>;
  const unknown = Object.keys(input).filter((key) => !(METADATA_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) throw fail(`unknown field ${JSON.stringify(unknown[0])}; the fields are ${METADATA_FIELDS.join(', ')}.`);

  const text = (field: string, raw: unknown): string => {
    if (typeof raw !== 'string') throw fail(`${field} must be a string, got ${describeType(raw)}.`);
    if (raw.length > MAX_FIELD_LENGTH) throw fail(`${field} is longer than ${MAX_FIELD_LENGTH} characters.`);
    const forbidden = forbiddenXmlCharacter(raw);
    if (forbidden) throw fail(`${field} holds ${forbidden}, a control character the PDF's XMP metadata (XML 1.0) cannot carry; remove it.`);
    return raw;
  };
  const metadata: DocumentMetadata = {};
  for (const field of ['title', 'author', 'subject', 'creator'] as const) {
    if (input[field] !== undefined) metadata[field] = text(field, input[field]);
  }
  if (input.language !== undefined) {
    const language = text('language', input.language);
    if (!LANGUAGE_TAG.test(language)) throw fail(`language ${JSON.stringify(language)} is not a language tag such as "en" or "en-GB".`);
    metadata.language = language;
  }
  if (input.keywords !== undefined) {
    const raw = input.keywords;
    const list = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw.map((keyword, i) => text(`keywords[${i}]`, keyword)) : undefined;
    if (!list) throw fail(`keywords must be a string or an array of strings, got ${describeType(raw)}.`);
    metadata.keywords = list.map((keyword) => keyword.trim()).filter(Boolean);
  }
  return metadata;
}

/** Later layers win field by field: the template's static, then the request's fields. */
export function mergeMetadata(...layers: (DocumentMetadata | undefined)[]): DocumentMetadata {
  const merged: DocumentMetadata = {};
  for (const layer of layers) {
    for (const [field, value] of Object.entries(layer ?? {})) if (value !== undefined) Object.assign(merged, { [field]: value });
  }
  return merged;
}
