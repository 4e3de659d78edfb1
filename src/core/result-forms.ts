/**
 * The three result forms of api.md A3. The PDF bytes are the same everywhere; only where a
 * `json` result's PDF is kept differs (a file:// URL in embedded mode, a capability URL on
 * the server), so that is handed in.
 */
import { ImprintError } from './errors.js';
import type { OutputFormat } from './render-request.js';
import { disposePdf, wholePdf, type PdfBytes } from './spool/spooled-pdf.js';

/** A `pdf` result may be a spooled file (spool/spooled-pdf.ts): whoever delivers it streams it and disposes of it. */
export type RenderResult =
  | { format: 'pdf'; pdf: PdfBytes }
  | { format: 'base64'; body: { data: string } }
  | { format: 'json'; body: { url: string } };

export type PublishPdf = (pdf: PdfBytes) => Promise<string> | string;

export async function toResultForm(pdf: PdfBytes, format: OutputFormat, publishPdf: PublishPdf): Promise<RenderResult> {
  switch (format) {
    case 'pdf':
      return { format, pdf };
    case 'base64':
      // The form is one JSON string of the whole file: a spooled document is read whole for it.
      return { format, body: { data: (await wholePdf(pdf)).toString('base64') } };
    case 'json':
      try {
        return { format, body: { url: await publishPdf(pdf) } };
      } finally {
        // Kept by the store now (a spooled file is streamed into it, not moved).
        await disposePdf(pdf);
      }
  }
}

/** The PDF of a result asked for as one (format 'pdf'): what a batch writes per row (a spooled one streamed and disposed of). */
export function pdfOf(result: RenderResult): PdfBytes {
  if (result.format !== 'pdf') throw new ImprintError('INTERNAL', `Expected a PDF, got a ${result.format} result.`);
  return result.pdf;
}
