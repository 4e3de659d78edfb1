/**
 * `imprint check --a11y` on one rendered template: axe-core in its page before the print
 * (axe-page.ts), then the printed PDF, tagged and finished as a render finishes it, read back
 * (pdf-checks.ts). A template with a title and a language is finished as `--pdfua` finishes
 * it (link /Contents, DisplayDocTitle, XMP), so the check judges what such a render gives; one
 * without either is judged as printed, and its missing title or language is a finding. The
 * template must have been built with source positions (bundleTemplate's `sourcePositions`) for
 * the page's findings to name the JSX line.
 */
import type { PageLook } from '../render-diagnosed.js';
import { finishAccessibility } from '../../pdf/accessibility.js';
import { finishPdf } from '../../pdf/finish-pdf.js';
import type { PageFacts } from '../../render/page-facts.js';
import { runAxe, type AxeViolation } from './axe-page.js';
import { metadataPosition, pageFindings } from './a11y-findings.js';
import { sortFindings, type A11yFinding } from './findings.js';
import { pdfFindings, readPdfA11yFacts } from './pdf-checks.js';

/** The print an accessibility check looks at: tagged, as an accessible PDF is printed, with what the PDF/UA step reads of the page. */
export const A11Y_PRINT = { tagged: true, pdfua: true } as const;

export interface A11yInspection {
  /** Hand to the render: runs axe in the rendered page, before its print (`check`) or after it (`dev`). */
  inPage: PageLook;
  /** After the render: the findings of the page and of its printed PDF (`facts`: the render's, for the PDF/UA step). */
  findings(pdf: Buffer, metadata: unknown, facts: PageFacts | undefined): Promise<A11yFinding[]>;
}

const metadataText = (metadata: unknown, field: 'language' | 'title') => {
  const value = metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' && value.trim() ? value : undefined;
};
const languageOf = (metadata: unknown) => metadataText(metadata, 'language');

/**
 * The printed PDF finished as a render finishes it. The PDF/UA step refuses a document without
 * a title or a language; a template that gives both in its metadata is always accepted by it.
 */
async function finishedAsRendered(pdf: Buffer, metadata: unknown, facts: PageFacts | undefined): Promise<Buffer> {
  const finished = await finishPdf(pdf, { templateMetadata: metadata });
  const pdfuaReady = metadataText(metadata, 'title') !== undefined && languageOf(metadata) !== undefined;
  return pdfuaReady ? finishAccessibility(finished, { pdfua: true }, facts) : finished;
}

/** `source`, `file`: the template's text and its name relative to its project, for the `metadata` position. */
export function inspectAccessibility(source: string, file: string): A11yInspection {
  let violations: AxeViolation[] | undefined;
  const metadataAt = metadataPosition(source, file);
  return {
    async inPage(page, metadata) {
      violations = await runAxe(page, languageOf(metadata));
    },
    async findings(pdf, metadata, facts) {
      if (!violations) throw new Error('The accessibility check was not run in the rendered page.');
      const inPage = pageFindings(violations, metadataAt);
      const languageReported = inPage.some((finding) => finding.rule === 'html-has-lang');
      const finished = await finishedAsRendered(pdf, metadata, facts);
      return sortFindings([...inPage, ...pdfFindings(await readPdfA11yFacts(finished), metadataAt, languageReported)]);
    },
  };
}
