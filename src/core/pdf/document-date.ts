/**
 * The dates a deterministic PDF carries. Chromium stamps every PDF with the moment it was
 * printed, the only thing that differs between two prints of the same document; a
 * deterministic render replaces that moment with one taken from its input, so the same input
 * gives the same bytes:
 * - SOURCE_DATE_EPOCH (the reproducible-builds convention), when the caller gives one;
 * - else a published template's version: the moment it was published;
 * - else the content itself (a local file, raw HTML): a date derived from its hash, the same
 *   for the same content on any machine, and another for other content.
 */
import { createHash } from 'node:crypto';
import { ImprintError } from '../errors.js';

/** `true`: dates from the input; a number: SOURCE_DATE_EPOCH's seconds; absent or false: the real time. */
export type Deterministic = boolean | number;

/** 9999-12-31T23:59:59Z: a PDF date has four digits of year. */
const LAST_PDF_SECOND = 253402300799;

const validEpoch = (value: number) => Number.isSafeInteger(value) && value >= 0 && value <= LAST_PDF_SECOND;

/** A request's `deterministic`: true/false, or seconds since 1970 (what SOURCE_DATE_EPOCH holds). */
export function parseDeterministic(value: unknown): Deterministic {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && validEpoch(value)) return value;
  throw new ImprintError('USAGE', `Invalid deterministic: expected true, false, or the document date as whole seconds since 1970 (SOURCE_DATE_EPOCH), got ${JSON.stringify(value)}.`);
}

/** The SOURCE_DATE_EPOCH variable: an empty value counts as unset, anything else must be seconds. */
export function parseSourceDateEpoch(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const seconds = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || !validEpoch(seconds)) {
    throw new ImprintError('USAGE', `SOURCE_DATE_EPOCH=${JSON.stringify(text)} is not a date: set it to whole seconds since 1970, e.g. $(git log -1 --format=%ct), or unset it.`);
  }
  return seconds;
}

/** The fixed date of a deterministic render, or undefined to keep the real time. */
export function documentDate(deterministic: Deterministic | undefined, fromInput: () => Date): Date | undefined {
  if (deterministic === undefined || deterministic === false) return undefined;
  if (typeof deterministic === 'number') return new Date(deterministic * 1000);
  return fromInput();
}

const Y2K_SECONDS = Date.UTC(2000, 0, 1) / 1000;
const SPAN_SECONDS = 30 * 365 * 24 * 60 * 60;

/**
 * A date derived from content: some second between 2000 and 2030, chosen by the content's
 * SHA-256. Meaningless as a time, but stable, and a change to the content moves it.
 */
export function dateFromContent(...parts: (string | Buffer)[]): Date {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return new Date((Y2K_SECONDS + (hash.digest().readUInt32BE(0) % SPAN_SECONDS)) * 1000);
}
