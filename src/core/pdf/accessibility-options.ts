/**
 * The accessibility options of a request (`tagged`, `outline`, `pdfua`; the CLI's --[no-]tagged,
 * --[no-]outline, --pdfua) and their defaults, written once: a PDF is tagged and has bookmarks
 * unless asked otherwise. Bookmarks and PDF/UA are both read from Chromium's tags, so asking for
 * either without tags is refused rather than quietly giving a flat PDF.
 */
import { ImprintError } from '../errors.js';

export interface AccessibilityOptions {
  /** A tagged PDF (a structure tree for screen readers). Default true. */
  tagged?: boolean;
  /** Bookmarks from the document's headings. Default: on whenever the PDF is tagged. */
  outline?: boolean;
  /** A PDF/UA-1 candidate (docs/accessibility.md). Default false. */
  pdfua?: boolean;
}

/** What the print step does, every default resolved. */
export interface PrintAccessibility {
  tagged: boolean;
  outline: boolean;
  /** Tagged only by default: the request asked for none of tagged, outline or pdfua. */
  byDefault: boolean;
}

/**
 * Tags by default stop at this many pages of content (screen layout, an estimate before the
 * print): Chromium's tagged print time grows with the square of the rows, so a 2,000-page
 * statement tagged did not finish in 10 minutes where it prints untagged in about one
 * (bench/README.md, Tagged big documents). A request that asks for tags (tagged, outline,
 * pdfua) gets them at any length.
 */
export const DEFAULT_TAGS_UP_TO_PAGES = 300;

function flag(field: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new ImprintError('USAGE', `Invalid ${field}: expected true or false, got ${JSON.stringify(value)}.`);
  return value;
}

/** Request fields `tagged`, `outline` and `pdfua` (undefined fields keep their defaults). */
export function parseAccessibility(input: { tagged?: unknown; outline?: unknown; pdfua?: unknown }): AccessibilityOptions {
  const options: AccessibilityOptions = {};
  const tagged = flag('tagged', input.tagged);
  const outline = flag('outline', input.outline);
  const pdfua = flag('pdfua', input.pdfua);
  if (tagged === false && outline === true) {
    throw new ImprintError('USAGE', 'Bookmarks (outline) are read from the PDF\'s tags: drop tagged false (--no-tagged), or drop outline true (--outline).');
  }
  if (tagged === false && pdfua === true) {
    throw new ImprintError('USAGE', 'A PDF/UA document is a tagged PDF: drop tagged false (--no-tagged), or drop pdfua (--pdfua).');
  }
  if (tagged !== undefined) options.tagged = tagged;
  if (outline !== undefined) options.outline = outline;
  if (pdfua !== undefined) options.pdfua = pdfua;
  return options;
}

/** The defaults, once: tagged unless asked not to be; bookmarks whenever tagged, unless asked not to. */
export function printAccessibility(options: AccessibilityOptions): PrintAccessibility {
  const tagged = options.tagged ?? true;
  const byDefault = options.tagged === undefined && options.outline === undefined && !options.pdfua;
  return { tagged, outline: tagged && (options.outline ?? true), byDefault };
}

/** What a print of about `pages` pages of content carries: a default's tags are left off past DEFAULT_TAGS_UP_TO_PAGES. */
export function printedAccessibility(accessibility: PrintAccessibility, pages: number): PrintAccessibility {
  return accessibility.byDefault && pages > DEFAULT_TAGS_UP_TO_PAGES ? { tagged: false, outline: false, byDefault: true } : accessibility;
}
