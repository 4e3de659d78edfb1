/**
 * htmldocs' Document: `size` (named or "<w><unit> <h><unit>"), `orientation`, `margin`
 * (default 0.39in, htmldocs' own). Imprint's Document writes the `@page` rule, turning a
 * custom size to the orientation (CSS takes none after two lengths, which is why such a size
 * fell back to A4 before).
 */
import type { CSSProperties, ReactNode } from 'react';
import { Document as ImprintDocument } from '../../react/document.js';
import type { Orientation, PageSize } from '../../react/page-css.js';
import { DocumentSettings } from './document-settings.js';

type Unit = 'in' | 'cm' | 'mm' | 'px';
export type SizeType = 'A3' | 'A4' | 'A5' | 'letter' | 'legal' | `${number}${Unit} ${number}${Unit}`;

export interface DocumentProps {
  size: SizeType;
  orientation: Orientation;
  margin?: CSSProperties['margin'];
  children: ReactNode;
}

/** htmldocs' default page margin. */
const HTMLDOCS_MARGIN = '0.39in';

export function Document({ size, orientation, margin, children }: DocumentProps) {
  const pageMargin = margin === undefined || margin === '' ? HTMLDOCS_MARGIN : margin;
  return (
    <ImprintDocument size={size as PageSize} orientation={orientation} margin={pageMargin}>
      <DocumentSettings.Provider value={{ margin: pageMargin }}>
        <div id="document" data-size={size} data-orientation={orientation}>
          {children}
        </div>
      </DocumentSettings.Provider>
    </ImprintDocument>
  );
}
