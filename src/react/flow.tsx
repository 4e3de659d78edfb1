/** Page breaks and spacing, with CSS fragmentation properties Chromium applies when printing. */
import type { CSSProperties, ReactNode } from 'react';
import { cssLength, type Length } from './page-css.js';

interface BlockProps {
  children?: ReactNode;
  className?: string;
  style?: CSSProperties;
}

const withClass = (base: string, extra?: string) => (extra ? `${base} ${extra}` : base);

/** Content on a page of its own: a break before and after it (a break at the very start prints no blank page). */
export function Page({ children, className, style }: BlockProps) {
  return (
    <section className={withClass('imprint-page', className)} style={{ breakBefore: 'page', breakAfter: 'page', ...style }}>
      {children}
    </section>
  );
}

/** What follows starts on a new page. */
export function PageBreak() {
  return <div className="imprint-page-break" style={{ breakBefore: 'page' }} aria-hidden="true" />;
}

/**
 * Never split across pages: moved whole to the next page when it does not fit. A block
 * taller than a page is still split (there is nowhere else for it to go).
 */
export function KeepTogether({ children, className, style }: BlockProps) {
  return (
    <div className={withClass('imprint-keep-together', className)} style={{ breakInside: 'avoid', ...style }}>
      {children}
    </div>
  );
}

export interface SpacerProps {
  /** Vertical space, e.g. "8mm". Default "1em". */
  size?: Length;
}

/** Empty vertical space. */
export function Spacer({ size = '1em' }: SpacerProps) {
  return <div className="imprint-spacer" style={{ height: cssLength(size) }} aria-hidden="true" />;
}
