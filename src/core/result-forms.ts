/**
 * The three result forms of api.md A3. The PDF bytes are the same everywhere; only where a
 * `json` result's PDF is kept differs (a file:// URL in embedded mode, a capability URL on
 * the server), so that is handed in.
 */
import { ImprintError } from './errors.js';
import type { OutputFormat } from './render-request.js';

export type RenderResult =
  | { format: 'pdf'; pdf: Buffer }
  | { format: 'base64'; body: { data: string } }
  | { format: 'json'; body: { url: string } };

export type PublishPdf = (pdf: Buffer) => Promise<string> | string;

export async function toResultForm(pdf: Buffer, format: OutputFormat, publishPdf: PublishPdf): Promise<RenderResult> {
  switch (format) {
    case 'pdf':
      return { format, pdf };
    case 'base64':
      return { format, body: { data: pdf.toString('base64') } };
    case 'json':
      return { format, body: { url: await publishPdf(pdf) } };
  }
}

/** The PDF of a result asked for as one (format 'pdf'): what the library returns and a batch writes per row. */
export function pdfOf(result: RenderResult): Buffer {
  if (result.format !== 'pdf') throw new ImprintError('INTERNAL', `Expected a PDF, got a ${result.format} result.`);
  return result.pdf;
}
