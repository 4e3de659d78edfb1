/**
 * Header and Footer: text, page numbers and images in the page margins, printed by Chromium
 * itself as CSS margin boxes (`@top-left`, `@bottom-center`, ...). They render no element in
 * the document: their `@page` rules go into the enclosing Document's stylesheet (or, outside
 * one, a `<style>` of their own), so they take no room from the content.
 */
import { useId, type ReactNode } from 'react';
import { slotParts, textOf } from './css-content.js';
import { useMarginFonts } from './margin-fonts.js';
import { useMarginRule } from './margin-rules.js';
import { marginBoxRule, type MarginBoxStyle, type MarginEdge, type MarginSlot, type PageSelector } from './page-css.js';
import { currentPageNumbers } from './page-numbers.js';
import { slotContent } from './section-counters.js';

export interface MarginBoxesProps {
  /** Left-aligned, at the left of the margin. */
  left?: ReactNode;
  /** Centred. `children` is the same slot. */
  center?: ReactNode;
  right?: ReactNode;
  children?: ReactNode;
  /**
   * The pages this is for: `all` (default), `first`, `odd` or `even`. A `first`, `odd` or
   * `even` one replaces the `all` one on those pages, all three slots; `first` wins over odd.
   */
  pages?: PageSelector;
  /** Text and box styling of the margin boxes (font, colour, border, padding...). Default 9pt. */
  style?: MarginBoxStyle;
}

function MarginBoxes({ edge, props }: { edge: MarginEdge; props: MarginBoxesProps }) {
  const where = edge === 'top' ? '<Header>' : '<Footer>';
  const slots: Record<MarginSlot, ReactNode> = { left: props.left, center: props.center ?? props.children, right: props.right };
  const contents: Partial<Record<MarginSlot, string>> = {};
  // A slot with a section counter brings a counter style of its own, named after this box.
  const counterStyles: string[] = [];
  const id = useId();
  for (const slot of ['left', 'center', 'right'] as const) {
    if (slots[slot] === undefined) continue;
    const { content, rule } = slotContent(slotParts(slots[slot], where), `${edge}-${slot}-${id}`, currentPageNumbers(), where);
    contents[slot] = content;
    if (rule) counterStyles.push(rule);
  }
  const style = props.style ?? {};
  useMarginFonts(style, Object.values(slots).map(textOf).join(' '));
  const pages = props.pages ?? 'all';
  const css = [...counterStyles, marginBoxRule(edge, pages, contents, style)].join('\n');
  // Inside a Document the rule goes into the Document's one stylesheet (see margin-rules.ts).
  const placedByDocument = useMarginRule({ pages, css });
  return placedByDocument ? null : <style>{css}</style>;
}

/** Text, <PageNumber />, <TotalPages /> and images in the top margin of the pages. */
export function Header(props: MarginBoxesProps) {
  return <MarginBoxes edge="top" props={props} />;
}

/** Text, <PageNumber />, <TotalPages /> and images in the bottom margin of the pages. */
export function Footer(props: MarginBoxesProps) {
  return <MarginBoxes edge="bottom" props={props} />;
}
