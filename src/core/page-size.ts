/**
 * Page sizes: the contract's DocumentSize (api.md A4), CSS `@page { size }` values, and the
 * rule that picks between them (api.md B: the request's size, else the template's own CSS
 * page size, else A4 portrait). Everything is kept in PostScript points, the unit a PDF's
 * MediaBox uses, so what we compute is exactly what `pdfinfo` reports.
 */
import { ImprintError } from './errors.js';

export type Orientation = 'portrait' | 'landscape';
export interface PageDimensions {
  widthPt: number;
  heightPt: number;
}

const POINTS_PER_UNIT = { in: 72, cm: 72 / 2.54, mm: 72 / 25.4, px: 0.75 } as const;
type Unit = keyof typeof POINTS_PER_UNIT;

const mm = (w: number, h: number): PageDimensions => ({ widthPt: w * POINTS_PER_UNIT.mm, heightPt: h * POINTS_PER_UNIT.mm });
const inch = (w: number, h: number): PageDimensions => ({ widthPt: w * 72, heightPt: h * 72 });

export const NAMED_SIZES: Record<string, PageDimensions> = {
  A3: mm(297, 420),
  A4: mm(210, 297),
  A5: mm(148, 210),
  letter: inch(8.5, 11),
  legal: inch(8.5, 14),
};
export const ORIENTATIONS: readonly Orientation[] = ['portrait', 'landscape'];

export const SIZE_HELP =
  'Use A3, A4, A5, letter, legal, or a custom size "<width><unit> <height><unit>" with units in, cm, mm or px (e.g. "100mm 150mm").';

const LENGTH = /^(\d+(?:\.\d+)?|\.\d+)(in|cm|mm|px)$/;

function parseLength(text: string): number | undefined {
  const match = LENGTH.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]) * POINTS_PER_UNIT[match[2] as Unit];
  return value > 0 ? value : undefined;
}

function namedSize(text: string): PageDimensions | undefined {
  const key = Object.keys(NAMED_SIZES).find((name) => name.toLowerCase() === text.toLowerCase());
  return key ? NAMED_SIZES[key] : undefined;
}

/**
 * The sides a PDF page may have: PDF's implementation limits (ISO 32000-1, annex C) are 3 to
 * 14 400 units, i.e. 3pt to 200in. Chromium's printer fails ("Printing failed") on a side of a
 * few hundred inches, and a number too long for a double arrives as Infinity, so every size is
 * held to this range before any page is opened.
 */
export const MIN_SIDE_PT = 3;
export const MAX_SIDE_PT = 14_400;
export const SIDE_RANGE_HELP = 'each side must be from 3pt (about 1.06mm, 0.042in) to 200in (5080mm, 508cm, 19200px), the limits of a PDF page';
// Unit conversions are not exact in binary: 5080mm is 14400.000000000002pt.
const SIDE_TOLERANCE_PT = 1e-6;

const sideInRange = (pt: number) => Number.isFinite(pt) && pt >= MIN_SIDE_PT - SIDE_TOLERANCE_PT && pt <= MAX_SIDE_PT + SIDE_TOLERANCE_PT;

/** Whether both sides of a page fit a PDF page (for sizes that come from a page's own CSS). */
export const fitsPdfPage = (size: PageDimensions) => sideInRange(size.widthPt) && sideInRange(size.heightPt);

/** What was sent, cut short: a 400-digit number says nothing more than its first 60 characters. */
const shown = (input: string) => (input.length > 60 ? `${input.slice(0, 60)}...` : input);

/** Parses a DocumentSize (api.md A4). Names are matched case-insensitively. */
export function parseDocumentSize(input: string): PageDimensions {
  const named = namedSize(input.trim());
  if (named) return named;
  const parts = input.trim().split(' ');
  if (parts.length === 2) {
    const [widthPt, heightPt] = parts.map(parseLength);
    if (widthPt !== undefined && heightPt !== undefined) {
      if (sideInRange(widthPt) && sideInRange(heightPt)) return { widthPt, heightPt };
      throw new ImprintError('USAGE', `Invalid size "${shown(input)}": ${SIDE_RANGE_HELP}.`);
    }
  }
  throw new ImprintError('USAGE', `Invalid size "${shown(input)}". ${SIZE_HELP}`);
}

/**
 * Checks a DocumentSize and hands it back as written. Sizes travel as the user wrote them (a
 * remote service gets "100mm 150mm", not a re-printed number of inches) and are parsed where
 * the page is printed.
 */
export function checkDocumentSize(input: string): string {
  parseDocumentSize(input);
  return input;
}

export function parseOrientation(input: string): Orientation {
  if ((ORIENTATIONS as readonly string[]).includes(input)) return input as Orientation;
  throw new ImprintError('USAGE', `Invalid orientation "${input}". Use portrait or landscape.`);
}

export function orient(size: PageDimensions, orientation: Orientation): PageDimensions {
  const isLandscape = size.widthPt > size.heightPt;
  const wantLandscape = orientation === 'landscape';
  return isLandscape === wantLandscape ? size : { widthPt: size.heightPt, heightPt: size.widthPt };
}

/**
 * A CSS `@page { size: ... }` value as Chromium reports it: "A4", "a4 landscape",
 * "landscape", "210mm 297mm", "8.5in". Returns undefined for "auto" or anything unknown.
 */
export function parseCssPageSize(value: string): { size?: PageDimensions; orientation?: Orientation } | undefined {
  const words = value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  let orientation: Orientation | undefined;
  const rest = words.filter((word) => {
    if (word === 'portrait' || word === 'landscape') {
      orientation = word;
      return false;
    }
    return true;
  });
  let size: PageDimensions | undefined;
  if (rest.length === 1) {
    const single = parseLength(rest[0]);
    size = namedSize(rest[0]) ?? (single ? { widthPt: single, heightPt: single } : undefined);
  } else if (rest.length === 2) {
    const [w, h] = rest.map(parseLength);
    if (w !== undefined && h !== undefined) size = { widthPt: w, heightPt: h };
  }
  if (!size && !orientation) return undefined;
  if (rest.length > 0 && !size) return undefined;
  return { size, orientation };
}

export interface PageSetup {
  size: PageDimensions;
  /** True when nothing was asked and the page's own CSS `@page` size decides, falling back to `size`. */
  preferCssPageSize: boolean;
}

/**
 * The request's size and orientation win; with neither, the template's CSS decides (A4
 * portrait if it says nothing). With only an orientation, the template's CSS size (if the
 * page declared one) is turned to that orientation, else A4 is.
 */
export function resolvePageSetup(
  request: { size?: PageDimensions; orientation?: Orientation },
  cssPageSize?: { size?: PageDimensions; orientation?: Orientation },
): PageSetup {
  if (!request.size && !request.orientation) return { size: NAMED_SIZES.A4, preferCssPageSize: true };
  const base = request.size ?? cssPageSize?.size ?? NAMED_SIZES.A4;
  const orientation = request.orientation ?? (request.size ? 'portrait' : cssPageSize?.orientation ?? 'portrait');
  // A custom size given explicitly wider than tall is taken as written unless an orientation is asked for.
  const size = request.size && !request.orientation ? base : orient(base, orientation);
  return { size, preferCssPageSize: false };
}
