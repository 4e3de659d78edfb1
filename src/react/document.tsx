/**
 * Document: the page setup (size, orientation, margins) as an `@page` rule, print defaults
 * that let the author's CSS win (every rule is wrapped in :where(), specificity zero), and
 * the flow that reserves room for running bands on every page.
 */
import type { CSSProperties, ReactNode } from 'react';
import { DocumentContext } from './document-context.js';
import { MarginRulesProvider, useMarginRulesRegistry } from './margin-rules.js';
import { pageRule, type PageSetupProps } from './page-css.js';

export interface DocumentProps extends PageSetupProps {
  children?: ReactNode;
  className?: string;
  style?: CSSProperties;
}

/**
 * The flow's padding is repeated on every page (box-decoration-break: clone), which is what
 * keeps content clear of a RunningHeader or RunningFooter: those are fixed-position bands
 * that Chromium paints at the same place on each page.
 */
const BASE_CSS = [
  ':where(html, body) { margin: 0; padding: 0; }',
  // Chromium repeats a table's thead (and tfoot) on every page it spans, and keeps rows whole.
  ':where(thead) { display: table-header-group; }',
  ':where(tfoot) { display: table-footer-group; }',
  ':where(tr) { break-inside: avoid; }',
  ':where(.imprint-flow) { box-decoration-break: clone; -webkit-box-decoration-break: clone;' +
    ' padding-top: var(--imprint-running-header-height, 0px); padding-bottom: var(--imprint-running-footer-height, 0px); }',
].join('\n');

export function Document({ children, className, style, ...setup }: DocumentProps) {
  // The Headers' and Footers' margin boxes, all in this one sheet, after the page setup.
  const margins = useMarginRulesRegistry();
  return (
    <DocumentContext.Provider value={true}>
      <MarginRulesProvider value={margins.registry}>
        <style>{[pageRule(setup), BASE_CSS, margins.sheet].filter(Boolean).join('\n')}</style>
        <div className={className ? `imprint-flow ${className}` : 'imprint-flow'} style={style}>
          {children}
        </div>
      </MarginRulesProvider>
    </DocumentContext.Provider>
  );
}
