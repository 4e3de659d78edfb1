/**
 * The page numbers Imprint hands a document between its prints (runtime/page-protocol.ts):
 * absent on the first print, which only finds out where each target lands, and in any page
 * that is not printed by Imprint (the studio's preview), where a placeholder of two digits
 * stands in and takes about the room the number will.
 */
import { PAGE_NUMBERS_GLOBAL, PAGE_REF_ATTRIBUTE, PAGE_SECTION_ATTRIBUTE, type PageNumbers } from '../runtime/page-protocol.js';

export { PAGE_REF_ATTRIBUTE, PAGE_SECTION_ATTRIBUTE };

export const PLACEHOLDER = '00';

/** The numbers of this print, if Imprint has them yet. */
export function currentPageNumbers(): PageNumbers | undefined {
  return (globalThis as Record<string, unknown>)[PAGE_NUMBERS_GLOBAL] as PageNumbers | undefined;
}

/** The page `id` landed on, as digits; the placeholder before Imprint knows it. */
export function pageLabel(id: string): string {
  const page = currentPageNumbers()?.targets[id];
  return page === undefined ? PLACEHOLDER : String(page);
}

/** `"#totals"` or `"totals"` to the id; an empty one is a template error, said at once. */
export function targetId(to: string, component: string): string {
  const id = to.startsWith('#') ? to.slice(1) : to;
  if (!id) throw new Error(`<${component} to="${to}" /> names no target: give the id of the element whose page to print, e.g. to="totals" for <h2 id="totals">.`);
  return id;
}
