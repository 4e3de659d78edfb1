/**
 * Turns what an author writes inside a Header or Footer slot into a CSS `content` value:
 * text becomes strings, <PageNumber/> and <TotalPages/> become counters, an <img> becomes
 * url(). A margin box can show nothing else, so anything else fails loudly with what to use
 * instead rather than silently losing its markup. The section counters have no CSS of their
 * own: a slot holding one becomes a counter style of its own (section-counters.ts).
 */
import { Fragment, isValidElement, type ReactNode } from 'react';
import { PageNumber, SectionNumber, SectionPageNumber, SectionPages, TotalPages, type CounterProps, type CounterStyle } from './counters.js';
import { PLACEHOLDER } from './page-numbers.js';

export const cssString = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\A ')}"`;

/** What a page counts: CSS's own `page` and `pages`, and the section ones Imprint computes. */
export type CounterName = 'page' | 'pages' | 'section' | 'section-page' | 'section-pages';

/** One piece of a slot, in order. */
export type SlotPart = { text: string } | { image: string } | { counter: CounterName; format: CounterStyle };

const COUNTERS = new Map<unknown, CounterName>([
  [PageNumber, 'page'],
  [TotalPages, 'pages'],
  [SectionNumber, 'section'],
  [SectionPageNumber, 'section-page'],
  [SectionPages, 'section-pages'],
]);

export const isSectionCounter = (part: SlotPart) => 'counter' in part && part.counter.startsWith('section');

function elementName(type: unknown): string {
  if (typeof type === 'string') return type;
  const named = type as { displayName?: string; name?: string } | undefined;
  return named?.displayName ?? named?.name ?? 'Component';
}

/** The slot's pieces; anything a margin box cannot show throws, saying what to use instead. */
export function slotParts(node: ReactNode, where: string): SlotPart[] {
  if (node === null || node === undefined || typeof node === 'boolean') return [];
  if (typeof node === 'string') return node === '' ? [] : [{ text: node }];
  if (typeof node === 'number' || typeof node === 'bigint') return [{ text: String(node) }];
  if (Array.isArray(node)) return node.flatMap((child) => slotParts(child, where));
  if (isValidElement(node)) {
    const props = node.props as Record<string, unknown>;
    const counter = COUNTERS.get(node.type);
    if (counter) return [{ counter, format: (props as CounterProps).format ?? 'decimal' }];
    if (node.type === Fragment) return slotParts(props.children as ReactNode, where);
    if (node.type === 'img' && typeof props.src === 'string') return [{ image: props.src }];
  }
  const name = isValidElement(node) ? `<${elementName(node.type)}>` : `a ${typeof node}`;
  throw new Error(
    `${name} cannot be placed in a ${where}: page margins show only text, <PageNumber />, <TotalPages />, the section counters and <img src>. ` +
      `For other markup on every page use <RunningHeader> or <RunningFooter>.`,
  );
}

function cssPart(part: SlotPart): string {
  if ('text' in part) return cssString(part.text);
  if ('image' in part) return `url(${cssString(part.image)})`;
  // Before Imprint knows the sections' pages (section-counters.ts replaces the whole slot then).
  if (isSectionCounter(part)) return cssString(PLACEHOLDER);
  return part.format !== 'decimal' ? `counter(${part.counter}, ${part.format})` : `counter(${part.counter})`;
}

/** The `content` value of the pieces: `""` for none. */
export const cssContent = (parts: readonly SlotPart[]): string => (parts.length > 0 ? parts.map(cssPart).join(' ') : '""');

/** The `content` value, or undefined when the slot was not given at all. */
export function toCssContent(node: ReactNode, where: string): string | undefined {
  return node === undefined ? undefined : cssContent(slotParts(node, where));
}

/** The plain text of a slot, for loading the fonts it is drawn in. */
export function textOf(node: ReactNode): string {
  if (node === null || node === undefined || typeof node === 'boolean') return '';
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (isValidElement(node)) {
    if (COUNTERS.has(node.type)) return '0123456789';
    return textOf((node.props as { children?: ReactNode }).children);
  }
  return '';
}
