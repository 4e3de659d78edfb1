/**
 * The CSS the components emit, as pure functions of their props: the `@page` rule of a
 * Document and the margin boxes of a Header or Footer. Everything is native CSS paged media
 * that Chromium prints by itself: nothing is measured or moved by script.
 */
import type { CSSProperties } from 'react';

export type NamedPageSize = 'A3' | 'A4' | 'A5' | 'letter' | 'legal';
type Unit = 'mm' | 'cm' | 'in' | 'px';
/** A named size, or `"<width><unit> <height><unit>"` such as `"100mm 150mm"`. */
export type PageSize = NamedPageSize | `${number}${Unit} ${number}${Unit}`;
export type Orientation = 'portrait' | 'landscape';

/** A CSS length: `"20mm"`, `"1in"`; a number is in CSS pixels (1/96 in). */
export type Length = string | number;
export type Margin = Length | { top?: Length; right?: Length; bottom?: Length; left?: Length };

/** Which pages a Header or Footer is for. Odd pages are CSS's right-hand pages (page 1 is one). */
export type PageSelector = 'all' | 'first' | 'odd' | 'even';

export const DEFAULT_MARGIN = '20mm';

export const cssLength = (value: Length) => (typeof value === 'number' ? `${value}px` : value);

export function cssMargin(margin: Margin): string {
  if (typeof margin !== 'object') return cssLength(margin);
  const { top = 0, right = 0, bottom = 0, left = 0 } = margin;
  return [top, right, bottom, left].map(cssLength).join(' ');
}

export interface PageSetupProps {
  size?: PageSize;
  orientation?: Orientation;
  margin?: Margin;
}

const CSS_PX_PER_UNIT: Record<Unit, number> = { in: 96, cm: 96 / 2.54, mm: 96 / 25.4, px: 1 };
const CUSTOM_SIZE = /^\s*(\d*\.?\d+)(mm|cm|in|px)\s+(\d*\.?\d+)(mm|cm|in|px)\s*$/;

/**
 * The `size` value of the `@page` rule. CSS accepts an orientation only after a named size
 * ("A4 landscape"): "6in 9in portrait" is invalid and Chromium drops the whole declaration
 * (A4 would be printed). So a custom size is turned to the orientation here and written
 * without it.
 */
export function cssPageSize(size: PageSize | undefined, orientation: Orientation | undefined): string {
  const custom = size ? CUSTOM_SIZE.exec(size) : null;
  if (!custom) return [size ?? 'A4', orientation].filter(Boolean).join(' ');
  const [, w, wUnit, h, hUnit] = custom;
  const width = Number(w) * CSS_PX_PER_UNIT[wUnit as Unit];
  const height = Number(h) * CSS_PX_PER_UNIT[hUnit as Unit];
  const swap = (orientation === 'landscape' && width < height) || (orientation === 'portrait' && width > height);
  return swap ? `${h}${hUnit} ${w}${wUnit}` : `${w}${wUnit} ${h}${hUnit}`;
}

export function pageRule({ size, orientation, margin = DEFAULT_MARGIN }: PageSetupProps): string {
  const declarations = [`margin: ${cssMargin(margin)};`];
  // Only when asked for: otherwise the request (or the template's own CSS) decides the paper.
  if (size || orientation) declarations.unshift(`size: ${cssPageSize(size, orientation)};`);
  return `@page { ${declarations.join(' ')} }`;
}

const PAGE_SELECTOR: Record<PageSelector, string> = { all: '', first: ':first', odd: ':right', even: ':left' };

export type MarginEdge = 'top' | 'bottom';
export type MarginSlot = 'left' | 'center' | 'right';

/** The CSS properties a margin box takes: text and box styling (CSS Paged Media 3, 5.3). */
export type MarginBoxStyle = Pick<
  CSSProperties,
  | 'color'
  | 'fontFamily'
  | 'fontSize'
  | 'fontStyle'
  | 'fontWeight'
  | 'letterSpacing'
  | 'lineHeight'
  | 'textTransform'
  | 'textAlign'
  | 'verticalAlign'
  | 'background'
  | 'backgroundColor'
  | 'border'
  | 'borderTop'
  | 'borderBottom'
  | 'padding'
  | 'paddingTop'
  | 'paddingBottom'
  | 'paddingLeft'
  | 'paddingRight'
>;

const UNITLESS = new Set(['fontWeight', 'lineHeight']);

export function declarations(style: MarginBoxStyle): string {
  return Object.entries(style)
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([name, value]) => {
      const property = name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
      const text = typeof value === 'number' && !UNITLESS.has(name) ? `${value}px` : String(value);
      return `${property}: ${text};`;
    })
    .join(' ');
}

/** Small type for page furniture unless the author says otherwise. */
export const DEFAULT_MARGIN_BOX_STYLE: MarginBoxStyle = { fontSize: '9pt' };

/**
 * One `@page` rule with the three margin boxes of one edge. A slot that is not given is
 * left alone on every page, and emptied on the pages of a variant (first, odd, even), so a
 * variant replaces the whole header there.
 */
export function marginBoxRule(
  edge: MarginEdge,
  pages: PageSelector,
  contents: Partial<Record<MarginSlot, string>>,
  style: MarginBoxStyle,
): string {
  const boxes = (['left', 'center', 'right'] as const).flatMap((slot) => {
    const content = contents[slot];
    if (content === undefined) return pages === 'all' ? [] : [`@${edge}-${slot} { content: none; }`];
    const preserveLines = content.includes('\\A') ? ' white-space: pre-wrap;' : '';
    return [`@${edge}-${slot} { content: ${content}; ${declarations({ ...DEFAULT_MARGIN_BOX_STYLE, ...style })}${preserveLines} }`];
  });
  return `@page${PAGE_SELECTOR[pages]} { ${boxes.join(' ')} }`;
}

/** A Header's or Footer's `@page` rule, and the pages it is for. */
export interface PageMarginRule {
  pages: PageSelector;
  css: string;
}

/** CSS Paged Media's precedence of page selectors: `:first` over `:left`/`:right` over none. */
const PAGE_PRECEDENCE: Record<PageSelector, number> = { all: 0, odd: 1, even: 1, first: 2 };

/**
 * The margin-box rules of a whole document, as ONE stylesheet, ordered `all`, then odd and
 * even, then `first` (in the order given within each). Chromium 156 honours the page
 * selectors' specificity only among the rules of one stylesheet: between two `<style>`
 * elements the later one wins, so a plain `@page` header written after a
 * `@page :first { content: none }` printed on page 1 anyway. In one sheet and in this order
 * the outcome is the same whether a browser goes by specificity or by source order.
 */
export function marginRulesSheet(rules: readonly PageMarginRule[]): string {
  return [...rules]
    .sort((a, b) => PAGE_PRECEDENCE[a.pages] - PAGE_PRECEDENCE[b.pages])
    .map((rule) => rule.css)
    .join('\n');
}
