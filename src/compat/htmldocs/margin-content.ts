/**
 * What an htmldocs MarginBox, Footer or Header holds, as a CSS `content` value. Paged.js moved
 * the element itself into the page margin; Chromium's margin boxes show only generated
 * content, so the markup is flattened: text stays text, the page counters htmldocs hands to a
 * render prop (and its `page-counter`/`pages-counter` spans) become `counter(page)` and
 * `counter(pages)`, an <img> becomes url(), a <br> a line break. Other markup keeps its text
 * and loses its own styling (the box's style comes from the component's props instead).
 */
import { Fragment, isValidElement, type ReactNode } from 'react';
import { PageNumber, TotalPages } from '../../react/counters.js';
import { cssString } from '../../react/css-content.js';

const COUNTER_CLASSES: Record<string, string> = { 'page-counter': 'counter(page)', 'pages-counter': 'counter(pages)' };

function counterClass(className: unknown): string | undefined {
  if (typeof className !== 'string') return undefined;
  return className.split(/\s+/).map((name) => COUNTER_CLASSES[name]).find(Boolean);
}

function parts(node: ReactNode, depth: number): string[] {
  if (node === null || node === undefined || typeof node === 'boolean') return [];
  if (typeof node === 'string') return node === '' ? [] : [cssString(node)];
  if (typeof node === 'number' || typeof node === 'bigint') return [cssString(String(node))];
  if (Array.isArray(node)) return node.flatMap((child) => parts(child, depth));
  if (!isValidElement(node)) return [];
  const props = node.props as Record<string, unknown>;
  if (node.type === PageNumber) return ['counter(page)'];
  if (node.type === TotalPages) return ['counter(pages)'];
  if (node.type === Fragment) return parts(props.children as ReactNode, depth);
  if (typeof node.type === 'string') {
    const counter = counterClass(props.className);
    if (counter) return [counter];
    if (node.type === 'img') return typeof props.src === 'string' ? [`url(${cssString(props.src)})`] : [];
    if (node.type === 'br') return ['"\\A "'];
    return parts(props.children as ReactNode, depth);
  }
  // A plain function component (a <PageLabel/> of the author's) is expanded to what it returns;
  // the depth bound keeps a component that returns itself from looping.
  if (typeof node.type === 'function' && !(node.type.prototype && 'render' in node.type.prototype) && depth < 20) {
    return parts((node.type as (props: unknown) => ReactNode)(props), depth + 1);
  }
  return parts(props.children as ReactNode, depth);
}

/** The `content` value; `""` when the children hold nothing printable. */
export function marginContent(children: ReactNode): string {
  const value = parts(children, 0);
  return value.length > 0 ? value.join(' ') : '""';
}

/** The plain text drawn, for loading its fonts (counters draw digits). */
export function marginText(content: string): string {
  const strings = content.match(/"(?:[^"\\]|\\.)*"/g) ?? [];
  return strings.map((s) => s.slice(1, -1)).join('') + (content.includes('counter(') ? '0123456789' : '');
}
