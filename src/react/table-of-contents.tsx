/**
 * TableOfContents: an entry per heading of the document (of the levels asked for), with its
 * text, dot leaders and the page it is printed on, each entry a link to its heading.
 *
 * The headings are read from the document once it is committed (a layout effect, so before
 * anything is printed): they come after the table in the tree, and may come from any
 * component. A heading without an id is given one (`imprint-heading-N`, in document order) for
 * its link. The page numbers come from Imprint's second print (page-numbers.ts); the first
 * already holds every entry, so a table of contents that fills several pages moves the
 * headings after it before their pages are read, not after.
 */
import { useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { PAGE_REF_ATTRIBUTE, pageLabel } from './page-numbers.js';

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

export interface TableOfContentsProps {
  /** The heading levels listed, default `[1, 2, 3]` (h1 to h3). */
  levels?: readonly HeadingLevel[];
  /** A title above the entries, as an `<h2>` (left out of the table itself). */
  title?: ReactNode;
  className?: string;
  style?: CSSProperties;
}

interface Entry {
  id: string;
  level: HeadingLevel;
  text: string;
}

/** Leaves out: headings inside a table of contents, and any under `data-toc-skip`. */
const SKIPPED = '.imprint-toc, [data-toc-skip]';

/** Author CSS wins: every rule has specificity zero (:where). */
const TOC_CSS = [
  ':where(.imprint-toc ol) { list-style: none; margin: 0; padding: 0; }',
  ':where(.imprint-toc-entry) { break-inside: avoid; }',
  ':where(.imprint-toc-entry > a) { display: flex; align-items: baseline; color: inherit; text-decoration: none; }',
  // An empty flex item sits on the baseline: its dotted bottom border is the leader.
  ':where(.imprint-toc-leader) { flex: 1 1 auto; min-width: 1.5em; margin: 0 0.35em; border-bottom: 0.12em dotted currentColor; }',
  ':where(.imprint-toc-page) { flex: none; font-variant-numeric: tabular-nums; }',
  ...[2, 3, 4, 5, 6].map((level) => `:where(.imprint-toc-level-${level}) { padding-left: ${(level - 1) * 1.25}em; }`),
].join('\n');

function collectHeadings(levels: readonly HeadingLevel[]): Entry[] {
  const selector = levels.map((level) => `h${level}`).join(',');
  if (!selector) return [];
  const entries: Entry[] = [];
  let generated = 0;
  for (const heading of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
    if (heading.closest(SKIPPED)) continue;
    if (!heading.id) {
      do generated++;
      while (document.getElementById(`imprint-heading-${generated}`));
      heading.id = `imprint-heading-${generated}`;
    }
    const text = (heading.getAttribute('data-toc-title') ?? heading.textContent ?? '').replace(/\s+/g, ' ').trim();
    entries.push({ id: heading.id, level: Number(heading.tagName.slice(1)) as HeadingLevel, text });
  }
  return entries;
}

export function TableOfContents({ levels = [1, 2, 3], title, className, style }: TableOfContentsProps) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const levelsKey = levels.join(',');
  const read = useRef(levels);
  read.current = levels;
  // After the commit, before the print: the whole document is there to read.
  useLayoutEffect(() => setEntries(collectHeadings(read.current)), [levelsKey]);
  return (
    <nav className={className ? `imprint-toc ${className}` : 'imprint-toc'} style={style} aria-label="Table of contents">
      <style>{TOC_CSS}</style>
      {title === undefined ? null : <h2 className="imprint-toc-title">{title}</h2>}
      <ol>
        {entries.map((entry) => (
          <li key={entry.id} className={`imprint-toc-entry imprint-toc-level-${entry.level}`}>
            <a href={`#${entry.id}`} {...{ [PAGE_REF_ATTRIBUTE]: entry.id }}>
              <span className="imprint-toc-text">{entry.text}</span>
              <span className="imprint-toc-leader" aria-hidden="true" />
              <span className="imprint-toc-page">{pageLabel(entry.id)}</span>
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
