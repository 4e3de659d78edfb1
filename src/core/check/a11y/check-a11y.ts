/**
 * `imprint check --a11y` on one rendered template: axe-core in its page before the print
 * (axe-page.ts), then the printed PDF, tagged and finished as a render finishes it, read back
 * (pdf-checks.ts). The template must have been built with source positions
 * (bundleTemplate's `sourcePositions`) for the page's findings to name the JSX line.
 */
import type { PageLook } from '../render-diagnosed.js';
import { finishPdf } from '../../pdf/finish-pdf.js';
import { runAxe, type AxeViolation } from './axe-page.js';
import { metadataPosition, pageFindings } from './a11y-findings.js';
import { sortFindings, type A11yFinding } from './findings.js';
import { pdfFindings, readPdfA11yFacts } from './pdf-checks.js';

/** The print an accessibility check looks at: tagged, as an accessible PDF is printed. */
export const A11Y_PRINT = { tagged: true } as const;

export interface A11yInspection {
  /** Hand to the render: runs axe in the rendered page, before its print (`check`) or after it (`dev`). */
  inPage: PageLook;
  /** After the render: the findings of the page and of its printed PDF. */
  findings(pdf: Buffer, metadata: unknown): Promise<A11yFinding[]>;
}

const languageOf = (metadata: unknown) => {
  const language = metadata && typeof metadata === 'object' ? (metadata as { language?: unknown }).language : undefined;
  return typeof language === 'string' && language.trim() ? language : undefined;
};

/** `source`, `file`: the template's text and its name relative to its project, for the `metadata` position. */
export function inspectAccessibility(source: string, file: string): A11yInspection {
  let violations: AxeViolation[] | undefined;
  const metadataAt = metadataPosition(source, file);
  return {
    async inPage(page, metadata) {
      violations = await runAxe(page, languageOf(metadata));
    },
    async findings(pdf, metadata) {
      if (!violations) throw new Error('The accessibility check was not run in the rendered page.');
      const inPage = pageFindings(violations, metadataAt);
      const languageReported = inPage.some((finding) => finding.rule === 'html-has-lang');
      const finished = await finishPdf(pdf, { templateMetadata: metadata });
      return sortFindings([...inPage, ...pdfFindings(await readPdfA11yFacts(finished), metadataAt, languageReported)]);
    },
  };
}
