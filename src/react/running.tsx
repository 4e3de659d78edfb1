/**
 * RunningHeader and RunningFooter: any markup (a logo beside an address, a coloured band)
 * repeated at the top or bottom of every page. Chromium prints a `position: fixed` element
 * on each page at the same place inside the page area; the Document's flow keeps that much
 * room free on every page. What Chromium 156 does not do, and these therefore cannot:
 * show page numbers (counters exist only in margin boxes: put them in a Header or Footer),
 * differ on the first, odd or even pages, or sit inside the page margin (content there is
 * clipped). Chromium supports neither `position: running()` nor `string-set`.
 *
 * A band is page furniture, repeated on every page: aria-hidden, so a tagged PDF prints it as
 * an artifact, outside the structure tree a screen reader reads (PDF/UA asks exactly that).
 */
import type { CSSProperties, ReactNode } from 'react';
import { useInsideDocument } from './document-context.js';
import { cssLength, type Length } from './page-css.js';

export interface RunningBandProps {
  /** The band's height, reserved on every page (e.g. "18mm"). */
  height: Length;
  children?: ReactNode;
  className?: string;
  style?: CSSProperties;
}

function RunningBand({ edge, props }: { edge: 'header' | 'footer'; props: RunningBandProps }) {
  useInsideDocument(edge === 'header' ? 'RunningHeader' : 'RunningFooter');
  const height = cssLength(props.height);
  const place: CSSProperties = edge === 'header' ? { top: 0 } : { bottom: 0 };
  return (
    <>
      <style>{`:root { --imprint-running-${edge}-height: ${height}; }`}</style>
      <div
        aria-hidden="true"
        className={props.className ? `imprint-running-${edge} ${props.className}` : `imprint-running-${edge}`}
        style={{ position: 'fixed', left: 0, right: 0, height, overflow: 'hidden', boxSizing: 'border-box', ...place, ...props.style }}
      >
        {props.children}
      </div>
    </>
  );
}

/** Markup repeated at the top of every page, inside the page area. Must be inside <Document>. */
export function RunningHeader(props: RunningBandProps) {
  return <RunningBand edge="header" props={props} />;
}

/** Markup repeated at the bottom of every page, inside the page area. Must be inside <Document>. */
export function RunningFooter(props: RunningBandProps) {
  return <RunningBand edge="footer" props={props} />;
}
