/**
 * htmldocs' MarginBox at any of the sixteen CSS margin-box positions, as a native `@page`
 * margin box Chromium prints itself (Paged.js' `position: running()` and
 * `content: element()`, which Chromium does not support, are not needed).
 *
 * Paged.js styled the running element like any element of the page: its `className` (often
 * Tailwind's) and inherited text styles applied. A margin box cannot take a class, so the
 * class's text styles are read from a hidden element carrying it, after layout, and written
 * into the margin box's rule; then `style`, then `marginBoxStyles`, as htmldocs applied them.
 */
import { useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useMarginFonts } from '../../react/margin-fonts.js';
import { marginContent, marginText } from './margin-content.js';

export type MarginBoxPosition =
  | 'top-left-corner' | 'top-left' | 'top-center' | 'top-right' | 'top-right-corner'
  | 'left-top' | 'left-middle' | 'left-bottom' | 'right-top' | 'right-middle' | 'right-bottom'
  | 'bottom-left-corner' | 'bottom-left' | 'bottom-center' | 'bottom-right' | 'bottom-right-corner';

export type PageType = 'all' | 'even' | 'odd' | 'blank';

export interface MarginBoxProps {
  children: ReactNode;
  position: MarginBoxPosition;
  pageType?: PageType;
  className?: string;
  style?: CSSProperties;
  marginBoxStyles?: CSSProperties;
  /** Paged.js' running-element name; nothing needs it here, it is accepted as htmldocs takes it. */
  runningName?: string;
}

/** Text styles a class can give that a margin box can show. */
const TEXT_PROPERTIES = ['color', 'font-family', 'font-size', 'font-style', 'font-weight', 'letter-spacing', 'line-height', 'text-transform', 'text-decoration-line'] as const;

const kebab = (name: string) => (name.startsWith('--') ? name : name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`));
const UNITLESS = new Set(['fontWeight', 'lineHeight', 'opacity', 'zIndex']);

function declarationsOf(style: CSSProperties | undefined): string[] {
  return Object.entries(style ?? {})
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([name, value]) => `${kebab(name)}: ${typeof value === 'number' && !UNITLESS.has(name) ? `${value}px` : String(value)};`);
}

/** htmldocs' default alignment of a box by where it sits. */
function alignment(position: MarginBoxPosition): string[] {
  const textAlign = position.includes('left') ? 'left' : position.includes('right') ? 'right' : 'center';
  const verticalAlign = position.includes('top') ? 'top' : position.includes('bottom') ? 'bottom' : 'middle';
  return [`text-align: ${textAlign};`, `vertical-align: ${verticalAlign};`];
}

/**
 * Odd and even pages are CSS's right and left pages (page 1 is a right page). A box for odd
 * or even pages is written on those pages only, so an odd and an even footer at the same
 * position both show.
 */
function pageRules(position: MarginBoxPosition, pageType: PageType, box: string): string {
  const selector = pageType === 'odd' ? ':right' : pageType === 'even' ? ':left' : '';
  const rule = `@page${selector} { @${position} { ${box} } }`;
  return pageType === 'blank' ? `${rule} @page:blank { @${position} { content: none; } }` : rule;
}

export function MarginBox({ children, position, pageType = 'all', className, style, marginBoxStyles }: MarginBoxProps) {
  const content = marginContent(children);
  const probe = useRef<HTMLSpanElement>(null);
  const [classStyles, setClassStyles] = useState<string[]>([]);
  useLayoutEffect(() => {
    // Read after layout, when the template's CSS (Tailwind's too) applies; a layout effect's
    // update renders again before anything is printed.
    if (!probe.current) return;
    const computed = getComputedStyle(probe.current);
    const read = TEXT_PROPERTIES.map((name) => [name, computed.getPropertyValue(name)] as const).filter(([, value]) => value !== '');
    const next = read.map(([name, value]) => `${name === 'text-decoration-line' ? 'text-decoration' : name}: ${value};`);
    setClassStyles((previous) => (previous.join('') === next.join('') ? previous : next));
  }, [className]);
  const box = [`content: ${content};`, ...alignment(position), ...classStyles, ...declarationsOf(style), ...declarationsOf(marginBoxStyles), content.includes('\\A') ? 'white-space: pre-wrap;' : ''];
  const fontOf = (name: string) => classStyles.find((d) => d.startsWith(`${name}:`))?.slice(name.length + 1, -1).trim();
  useMarginFonts({ fontFamily: style?.fontFamily ?? fontOf('font-family'), fontWeight: style?.fontWeight ?? fontOf('font-weight'), fontStyle: style?.fontStyle ?? fontOf('font-style') }, marginText(content));
  return (
    <>
      <style>{pageRules(position, pageType, box.filter(Boolean).join(' '))}</style>
      <span ref={probe} className={className} style={{ display: 'none' }} aria-hidden="true" />
    </>
  );
}
