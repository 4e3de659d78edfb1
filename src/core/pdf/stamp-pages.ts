/**
 * Which pages a stamp goes on (`--stamp-pages`, the API's `stamp.pages`): all, first, last, or
 * a list of pages and ranges such as "1-3", "2,4" or "3-" (from page 3 to the end). Checked as
 * written when the request is read; matched against the page count once the document exists.
 */
import { ImprintError, type ErrorCode } from '../errors.js';

export const PAGES_SYNTAX = 'all, first, last, or pages and ranges such as 1-3, 2,4 or 3- (page 3 to the end)';

const RANGE = /^(\d+)(?:-(\d*))?$/;

/** The selection as written, refused when it cannot name pages ("0", "3-1", "odd"). */
export function parseStampPages(value: unknown, field = 'stamp pages', code: ErrorCode = 'USAGE'): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ImprintError(code, `Invalid ${field} ${JSON.stringify(value)}: use ${PAGES_SYNTAX}.`);
  const text = value.trim().toLowerCase();
  if (text === 'all' || text === 'first' || text === 'last') return text;
  for (const part of text.split(',')) {
    const match = RANGE.exec(part.trim());
    const from = match ? Number(match[1]) : 0;
    const to = match?.[2] ? Number(match[2]) : from;
    if (!match || from < 1 || to < from) throw new ImprintError(code, `Invalid ${field} "${value}": "${part.trim()}" names no pages; use ${PAGES_SYNTAX}.`);
  }
  return text.split(',').map((part) => part.trim()).join(',');
}

/** The 0-based indexes `pages` names in a document of `count` pages; a page past the end is refused (INVALID_INPUT). */
export function stampPageIndexes(pages: string, count: number): number[] {
  if (pages === 'all') return Array.from({ length: count }, (_, index) => index);
  if (pages === 'first') return [0];
  if (pages === 'last') return [count - 1];
  const chosen = new Set<number>();
  for (const part of pages.split(',')) {
    const [, fromText, toText] = RANGE.exec(part)!;
    const from = Number(fromText);
    // "3-": to the end; "3": that page alone.
    const to = toText === undefined ? from : toText === '' ? count : Number(toText);
    if (from > count || to > count) {
      throw new ImprintError('INVALID_INPUT', `The stamp's pages "${pages}" name page ${Math.max(from, to)}, but the document has ${count} page${count === 1 ? '' : 's'}; use "${from}-" to stamp from page ${from} to the end.`);
    }
    for (let page = from; page <= to; page += 1) chosen.add(page - 1);
  }
  return [...chosen].sort((a, b) => a - b);
}
