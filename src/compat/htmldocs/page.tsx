/**
 * htmldocs' Page: a div with the div's props, and an optional `margin` for the page box.
 * Paged.js gave each Page the page area's full height; Chromium lays the document out as one
 * flow, so here each Page starts on a new page instead (a break at the very start prints no
 * blank page) and is as tall as its content.
 */
import { useContext, type ComponentProps, type CSSProperties } from 'react';
import { cssLength } from '../../react/page-css.js';
import { DocumentSettings } from './document-settings.js';

export interface PageProps extends ComponentProps<'div'> {
  margin?: CSSProperties['margin'];
}

export function Page({ children, style, margin, ...props }: PageProps) {
  const settings = useContext(DocumentSettings);
  return (
    <>
      {margin !== undefined && margin !== settings.margin ? <style>{`@page { margin: ${cssLength(margin)}; }`}</style> : null}
      <div style={{ width: '100%', breakBefore: 'page', ...style }} {...props}>
        {children}
      </div>
    </>
  );
}
