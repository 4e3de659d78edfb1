/**
 * "Section 2, page 3 of 7" in a page margin. CSS counts pages for the whole document only, and
 * a margin box's content is one rule for every page, so a slot holding a section counter is
 * written out page by page, once Imprint knows where each `<Section>` starts (page-numbers.ts):
 * one `@counter-style` whose symbol for page N is the slot's whole text on page N (empty on
 * pages before the first section), shown with `counter(page, <that style>)`. Chromium prints
 * custom counter styles in margin boxes like the built-in ones.
 */
import { cssContent, cssString, isSectionCounter, type SlotPart } from './css-content.js';
import { formatCounter } from './counter-format.js';
import type { PageNumbers } from '../runtime/page-protocol.js';

interface PageInSection {
  page: number;
  pages: number;
  /** 1 for the first section. */
  section: number;
  sectionPage: number;
  sectionPages: number;
}

/**
 * Where each page stands: a page belongs to the last section that starts on it or before it
 * (so sections that share a page give it to the later one); undefined before the first.
 */
export function pagesInSections(numbers: PageNumbers): (PageInSection | undefined)[] {
  const starts = numbers.sections.map((id) => numbers.targets[id]).filter((page): page is number => page !== undefined);
  return Array.from({ length: numbers.pages }, (_, index) => {
    const page = index + 1;
    let section = -1;
    for (let s = 0; s < starts.length && starts[s] <= page; s++) section = s;
    if (section < 0) return undefined;
    const end = section + 1 < starts.length ? Math.max(starts[section], starts[section + 1] - 1) : numbers.pages;
    return { page, pages: numbers.pages, section: section + 1, sectionPage: page - starts[section] + 1, sectionPages: end - starts[section] + 1 };
  });
}

function pieceText(part: SlotPart, at: PageInSection): string {
  if ('text' in part) return part.text;
  if ('image' in part) throw new Error('unreachable: images are refused before');
  const value = { page: at.page, pages: at.pages, section: at.section, 'section-page': at.sectionPage, 'section-pages': at.sectionPages }[part.counter];
  return formatCounter(value, part.format);
}

/** An identifier from React's useId (which holds colons or guillemets). */
const identifier = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '');

/**
 * A slot's `content`, and the `@counter-style` it needs when it holds a section counter and
 * the sections' pages are known. `name`: unique to the slot and the same on every print.
 */
export function slotContent(parts: readonly SlotPart[], name: string, numbers: PageNumbers | undefined, where: string): { content: string; rule?: string } {
  if (!parts.some(isSectionCounter) || !numbers) return { content: cssContent(parts) };
  if (parts.some((part) => 'image' in part)) {
    throw new Error(`A ${where} slot with a section counter shows text only: put the image in another slot.`);
  }
  const style = `imprint-section-${identifier(name)}`;
  const symbols = pagesInSections(numbers).map((at) => cssString(at ? parts.map((part) => pieceText(part, at)).join('') : ''));
  if (symbols.length === 0) return { content: '""' };
  return { content: `counter(page, ${style})`, rule: `@counter-style ${style} { system: fixed 1; symbols: ${symbols.join(' ')}; fallback: decimal; }` };
}
