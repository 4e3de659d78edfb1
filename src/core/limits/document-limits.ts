/**
 * A printed document is checked against the service's limits before it is returned or
 * stored: too many pages or too many bytes answer 422 with the limit named. 422, not 500: the
 * document is too large because of what was asked (the props, the HTML), the same request
 * fails the same way every time, and the caller can fix it (fewer rows, smaller images, split
 * the document); a 5xx would tell clients to retry. The render has already run by then (the
 * deadline bounds its cost); what the check guarantees is that no oversized PDF is sent,
 * stored behind a download URL or counted as a generation.
 */
import { ImprintError } from '../errors.js';
import { countPdfPages } from './pdf-pages.js';
import { isSpooled, pdfByteLength, type PdfBytes } from '../spool/spooled-pdf.js';
import { formatBytes } from './format-bytes.js';
import { raiseLimitAdvice, type RenderLimits } from './render-limits.js';

/** A spooled PDF (spool/spooled-pdf.ts) carries the page count the step that wrote it counted, so the file is not read again. */
export function checkDocumentLimits(pdf: PdfBytes, limits: Pick<RenderLimits, 'maxPages' | 'maxPdfBytes'>): void {
  if (Number.isFinite(limits.maxPages)) {
    const pages = isSpooled(pdf) ? pdf.pages : countPdfPages(pdf);
    if (pages === undefined) {
      throw new ImprintError('INTERNAL', 'The printed PDF has no readable page tree, so its page count cannot be checked against the page limit.');
    }
    if (pages > limits.maxPages) {
      throw new ImprintError(
        'DOCUMENT_TOO_LARGE',
        `The document has ${pages} pages, more than the ${limits.maxPages} pages per document this service renders. Split it into several documents, ${raiseLimitAdvice('maxPages')}`,
      );
    }
  }
  const bytes = pdfByteLength(pdf);
  if (bytes > limits.maxPdfBytes) {
    throw new ImprintError(
      'DOCUMENT_TOO_LARGE',
      `The document is ${formatBytes(bytes)}, larger than the ${formatBytes(limits.maxPdfBytes)} per document this service returns. Use smaller images or fewer pages, split it, ${raiseLimitAdvice('maxPdfBytes')}`,
    );
  }
}
