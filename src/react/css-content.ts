/**
 * Turns what an author writes inside a Header or Footer slot into a CSS `content` value:
 * text becomes strings, <PageNumber/> and <TotalPages/> become counters, an <img> becomes
 * url(). A margin box can show nothing else, so anything else fails loudly with what to use
 * instead rather than silently losing its markup.
 */
import { Fragment, isValidElement, type ReactNode } from 'react';
import { PageNumber, TotalPages, type CounterProps } from './counters.js';

export const cssString = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\A ')}"`;

function elementName(type: unknown): string {
  if (typeof type === 'string') return type;
  const named = type as { displayName?: string; name?: string } | undefined;
  return named?.displayName ?? named?.name ?? 'Component';
}

function counter(name: 'page' | 'pages', props: CounterProps): string {
  return props.format && props.format !== 'decimal' ? `counter(${name}, ${props.format})` : `counter(${name})`;
}

function parts(node: ReactNode, where: string): string[] {
  if (node === null || node === undefined || typeof node === 'boolean') return [];
  if (typeof node === 'string') return node === '' ? [] : [cssString(node)];
  if (typeof node === 'number' || typeof node === 'bigint') return [cssString(String(node))];
  if (Array.isArray(node)) return node.flatMap((child) => parts(child, where));
  if (isValidElement(node)) {
    const props = node.props as Record<string, unknown>;
    if (node.type === PageNumber) return [counter('page', props)];
    if (node.type === TotalPages) return [counter('pages', props)];
    if (node.type === Fragment) return parts(props.children as ReactNode, where);
    if (node.type === 'img' && typeof props.src === 'string') return [`url(${cssString(props.src)})`];
  }
  const name = isValidElement(node) ? `<${elementName(node.type)}>` : `a ${typeof node}`;
  throw new Error(
    `${name} cannot be placed in a ${where}: page margins show only text, <PageNumber />, <TotalPages /> and <img src>. ` +
      `For other markup on every page use <RunningHeader> or <RunningFooter>.`,
  );
}

/** The `content` value, or undefined when the slot was not given at all. */
export function toCssContent(node: ReactNode, where: string): string | undefined {
  if (node === undefined) return undefined;
  const value = parts(node, where);
  return value.length > 0 ? value.join(' ') : '""';
}

/** The plain text of a slot, for loading the fonts it is drawn in. */
export function textOf(node: ReactNode): string {
  if (node === null || node === undefined || typeof node === 'boolean') return '';
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (isValidElement(node)) {
    if (node.type === PageNumber || node.type === TotalPages) return '0123456789';
    return textOf((node.props as { children?: ReactNode }).children);
  }
  return '';
}
