/**
 * The merge step of the finishing pipeline (engine.ts finished()): after stamps, before PDF/A,
 * encryption and the signature, so those cover the whole merged file. The request's `prepend`
 * and `append` parts (parts.ts) are fetched or decoded, held to the render's limits, and put
 * around the rendered document (merge-pdfs.ts). Without parts the PDF is returned untouched.
 */
import { ImprintError } from '../../errors.js';
import { formatBytes } from '../../limits/format-bytes.js';
import { MAX_FETCHED_PART_BYTES } from '../../limits/merge-limits.js';
import type { RenderLimits } from '../../limits/render-limits.js';
import type { PartFetcher } from './fetch-part.js';
import { mergePdfs, type PdfPart } from './merge-pdfs.js';
import { partBytes, partFileName, type MergePart, type MergeParts } from './parts.js';

export interface MergeStepDeps {
  /** Fetches a part given by URL under the caller's network rules; absent, such a part is refused. */
  fetchPart?: PartFetcher;
  limits: Pick<RenderLimits, 'maxPages' | 'maxPdfBytes'>;
}

/** The rendered document's outline entry when it has no Title. */
const MAIN_TITLE = 'Document';

async function partPdf(part: MergePart, label: string, deps: MergeStepDeps): Promise<Buffer> {
  const maxBytes = Math.min(deps.limits.maxPdfBytes, MAX_FETCHED_PART_BYTES);
  if ('url' in part) {
    if (!deps.fetchPart) throw new ImprintError('INVALID_INPUT', `${label}: this engine fetches no URLs; send the PDF itself as {"pdf": "<base64>"}.`);
    return deps.fetchPart(part.url, label, maxBytes);
  }
  const pdf = partBytes(part);
  if (pdf.length > maxBytes) throw new ImprintError('DOCUMENT_TOO_LARGE', `${label} is ${formatBytes(pdf.length)}, larger than ${formatBytes(maxBytes)}, the most a part to merge may have here.`);
  return pdf;
}

function resolveParts(parts: MergePart[] | undefined, field: 'prepend' | 'append', deps: MergeStepDeps): Promise<PdfPart[]> {
  return Promise.all(
    (parts ?? []).map(async (part, index) => {
      const label = `${field}[${index}]`;
      const name = partFileName(part, label);
      return { pdf: await partPdf(part, label, deps), name: name === label ? label : `${label} (${name})`, fallbackTitle: name };
    }),
  );
}

export async function mergeParts(pdf: Buffer, options: MergeParts, deps: MergeStepDeps): Promise<Buffer> {
  if (!options.prepend && !options.append) return pdf;
  const [before, after] = await Promise.all([resolveParts(options.prepend, 'prepend', deps), resolveParts(options.append, 'append', deps)]);
  return mergePdfs({ pdf, name: 'the rendered document', fallbackTitle: MAIN_TITLE }, before, after, { maxPages: deps.limits.maxPages });
}
