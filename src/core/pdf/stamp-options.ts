/**
 * The request's `stamp` field (the CLI's --stamp, --stamp-pages, --stamp-position,
 * --stamp-opacity, --stamp-rotate) and a template's `stamp` static, read by one parser: what is
 * stamped (a text, one page of a PDF, or an SVG), on which pages, where, how see-through and at
 * which angle. Stamping is stamp-pdf.ts.
 *
 * Over the API a file stamp travels in the body (a PDF as base64, an SVG as its markup): the
 * service fetches nothing for a stamp, so a stamp adds no egress path.
 */
import { ImprintError, type ErrorCode } from '../errors.js';
import { formatBytes } from '../limits/format-bytes.js';
import { parseStampPages } from './stamp-pages.js';

export const STAMP_POSITIONS = ['center', 'top-left', 'top', 'top-right', 'left', 'right', 'bottom-left', 'bottom', 'bottom-right'] as const;
export type StampPosition = (typeof STAMP_POSITIONS)[number];

/**
 * What is stamped: a text drawn as real text (searchable), the first page of a PDF (base64: the
 * options stay JSON, as a job's stored spec keeps them), or an SVG.
 */
export type StampContent = { text: string } | { pdf: string } | { svg: string };

export interface StampOptions {
  content: StampContent;
  /** stamp-pages.ts's syntax, as checked: all, first, last, "1-3"... */
  pages: string;
  position: StampPosition;
  /** 0 (invisible) to 1 (opaque). */
  opacity: number;
  /** Degrees counter-clockwise, or each page's own diagonal (bottom-left to top-right). */
  rotate: number | 'diagonal';
  /** A text stamp's colour, 0-1 each; the test key's red (test-key.ts). Not a request field. */
  color?: [number, number, number];
}

/** The `stamp` field as a request body writes it (the client's type): a text, or one kind with its placement. */
export type StampField =
  | string
  | (({ text: string } | { pdf: string } | { svg: string }) & { pages?: string; position?: StampPosition; opacity?: number; rotate?: number | 'diagonal' });

export const STAMP_DEFAULTS = { pages: 'all', position: 'center', opacity: 0.5, rotate: 0 } as const;

/** A stamp is a mark, not a document: limits that keep a request's body small. */
const MAX_TEXT = 200;
const MAX_PDF_BYTES = 5 * 1024 * 1024;
const MAX_SVG_CHARS = 1024 * 1024;

const STAMP_FIELDS = ['text', 'pdf', 'svg', 'pages', 'position', 'opacity', 'rotate'];

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A PDF given as base64 (the API's form; the CLI reads the file and sends it so), checked and kept as given. */
function pdfContent(value: unknown, field: string, code: ErrorCode): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/\r\n]*={0,2}\s*$/.test(value)) throw new ImprintError(code, `Invalid ${field}.pdf: expected the stamp PDF's bytes as base64.`);
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length > MAX_PDF_BYTES) throw new ImprintError(code, `Invalid ${field}.pdf: ${formatBytes(bytes.length)}, more than the ${formatBytes(MAX_PDF_BYTES)} a stamp may be.`);
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw new ImprintError(code, `Invalid ${field}.pdf: the bytes are not a PDF (no %PDF- header).`);
  return value;
}

function content(value: Record<string, unknown>, field: string, code: ErrorCode): StampContent {
  const given = ['text', 'pdf', 'svg'].filter((kind) => value[kind] !== undefined);
  if (given.length !== 1) throw new ImprintError(code, `Invalid ${field}: give exactly one of text, pdf (base64) or svg (its markup), e.g. {"text": "DRAFT"}.`);
  if (value.text !== undefined) {
    if (typeof value.text !== 'string' || value.text.trim() === '' || value.text.length > MAX_TEXT) throw new ImprintError(code, `Invalid ${field}.text: expected 1 to ${MAX_TEXT} characters, e.g. "DRAFT".`);
    return { text: value.text };
  }
  if (value.pdf !== undefined) return { pdf: pdfContent(value.pdf, field, code) };
  if (typeof value.svg !== 'string' || !/<svg[\s>]/i.test(value.svg) || value.svg.length > MAX_SVG_CHARS) {
    throw new ImprintError(code, `Invalid ${field}.svg: expected an SVG's markup (<svg ...>...</svg>) of at most ${formatBytes(MAX_SVG_CHARS)}.`);
  }
  return { svg: value.svg };
}

function opacity(value: unknown, field: string, code: ErrorCode): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 1) return value;
  throw new ImprintError(code, `Invalid ${field}.opacity ${JSON.stringify(value)}: expected a number above 0 and at most 1, e.g. 0.3.`);
}

function rotation(value: unknown, field: string, code: ErrorCode): number | 'diagonal' {
  if (value === 'diagonal') return value;
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= 360) return value;
  throw new ImprintError(code, `Invalid ${field}.rotate ${JSON.stringify(value)}: expected degrees from -360 to 360 (counter-clockwise, e.g. 45), or "diagonal".`);
}

/**
 * `value`: a text ("DRAFT") or { text | pdf | svg, pages?, position?, opacity?, rotate? }.
 * `field` and `code` name it in errors: the request's (USAGE, a 400) or a template's (RENDER_FAILED).
 */
export function parseStamp(value: unknown, field = 'stamp', code: ErrorCode = 'USAGE'): StampOptions {
  const given = typeof value === 'string' ? { text: value } : value;
  if (!isObject(given)) throw new ImprintError(code, `Invalid ${field}: expected a text such as "DRAFT" or an object such as {"text": "DRAFT", "pages": "first", "rotate": 45}.`);
  for (const key of Object.keys(given)) {
    if (!STAMP_FIELDS.includes(key)) throw new ImprintError(code, `Unknown field ${field}.${key.slice(0, 60)}: a stamp takes ${STAMP_FIELDS.join(', ')}.`);
  }
  const position = given.position ?? STAMP_DEFAULTS.position;
  if (typeof position !== 'string' || !(STAMP_POSITIONS as readonly string[]).includes(position)) {
    throw new ImprintError(code, `Invalid ${field}.position ${JSON.stringify(position)}: use one of ${STAMP_POSITIONS.join(', ')}.`);
  }
  return {
    content: content(given, field, code),
    pages: given.pages === undefined ? STAMP_DEFAULTS.pages : parseStampPages(given.pages, `${field}.pages`, code),
    position: position as StampPosition,
    opacity: given.opacity === undefined ? STAMP_DEFAULTS.opacity : opacity(given.opacity, field, code),
    rotate: given.rotate === undefined ? STAMP_DEFAULTS.rotate : rotation(given.rotate, field, code),
  };
}

/** The stamp as a request body carries it (the CLI's remote mode sends it so). */
export function stampField(stamp: StampOptions): StampField {
  const { content: what, pages, position, opacity: alpha, rotate } = stamp;
  return { ...what, pages, position, opacity: alpha, rotate };
}

/** Whether a render gets a stamp, the template's not yet read: chosenStamp then gives one (or refuses the template's). */
export const stampGiven = (requested: StampOptions | undefined, fromTemplate: unknown): boolean => Boolean(requested) || (fromTemplate !== undefined && fromTemplate !== null);

/** The stamp a render gets: the request's, else the template's `stamp` static (untrusted, from the page; null or absent: none). */
export function chosenStamp(requested: StampOptions | undefined, fromTemplate: unknown): StampOptions | undefined {
  if (requested) return requested;
  return stampGiven(undefined, fromTemplate) ? parseStamp(fromTemplate, "the template's stamp", 'RENDER_FAILED') : undefined;
}
