/**
 * The merge step of the finishing pipeline (engine.ts finished()): after stamps, before PDF/A,
 * encryption and the signature, so those cover the whole merged file. The request's `prepend`
 * and `append` parts (parts.ts) are judged before the print (beginParts: a refused URL or an
 * oversized part costs no print), their downloads run while the page prints, and they are put
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
  /** Judges and fetches a part given by URL under the caller's network rules; absent, such a part is refused. */
  fetchPart?: PartFetcher;
  limits: Pick<RenderLimits, 'maxPages' | 'maxPdfBytes'>;
}

/** A render's parts between the print's start and the merge. */
export interface PendingParts {
  /** No part asked (no prepend, no append): mergeInto gives the print back as it is. */
  readonly empty: boolean;
  /** The print, awaited: when it fails, the downloads still running are given up. */
  during<T>(print: Promise<T>): Promise<T>;
  /**
   * `pdf` (the finished print) with the parts around it, once their downloads are in; a part
   * that failed to download fails the render here, with its own error.
   */
  mergeInto(pdf: Buffer): Promise<Buffer>;
}

/** The rendered document's outline entry when it has no Title. */
const MAIN_TITLE = 'Document';

const NO_PARTS: PendingParts = { empty: true, during: (print) => print, mergeInto: async (pdf) => pdf };

/** A part's bytes, or why they could not be had: kept until the merge reads it (no rejection left unhandled meanwhile). */
type Outcome = { pdf: Buffer } | { error: unknown };

interface JudgedPart {
  name: string;
  fallbackTitle: string;
  bytes: (signal: AbortSignal) => Promise<Buffer>;
}

async function judgePart(part: MergePart, label: string, maxBytes: number, deps: MergeStepDeps): Promise<JudgedPart> {
  const fileName = partFileName(part, label);
  const named = { name: fileName === label ? label : `${label} (${fileName})`, fallbackTitle: fileName };
  if ('url' in part) {
    if (!deps.fetchPart) throw new ImprintError('INVALID_INPUT', `${label}: this engine fetches no URLs; send the PDF itself as {"pdf": "<base64>"}.`);
    const download = await deps.fetchPart(part.url, label);
    return { ...named, bytes: (signal) => download(maxBytes, signal) };
  }
  const pdf = partBytes(part);
  if (pdf.length > maxBytes) throw new ImprintError('DOCUMENT_TOO_LARGE', `${label} is ${formatBytes(pdf.length)}, larger than ${formatBytes(maxBytes)}, the most a part to merge may have here.`);
  return { ...named, bytes: async () => pdf };
}

/**
 * Judges every part now (URLs against the network rules, sizes against the limits) and starts
 * the downloads; call before the print. A failure between the print and the merge (rare: the
 * info step) leaves a download to end by itself, bounded by its deadline and byte limit.
 */
export async function beginParts(options: MergeParts, deps: MergeStepDeps): Promise<PendingParts> {
  if (!options.prepend && !options.append) return NO_PARTS;
  const maxBytes = Math.min(deps.limits.maxPdfBytes, MAX_FETCHED_PART_BYTES);
  const judge = (parts: MergePart[] | undefined, field: 'prepend' | 'append') => Promise.all((parts ?? []).map((part, index) => judgePart(part, `${field}[${index}]`, maxBytes, deps)));
  const [before, after] = await Promise.all([judge(options.prepend, 'prepend'), judge(options.append, 'append')]);

  const downloads = new AbortController();
  const start = (parts: JudgedPart[]) => parts.map((part) => ({ part, outcome: part.bytes(downloads.signal).then((pdf): Outcome => ({ pdf }), (error: unknown): Outcome => ({ error })) }));
  const [beforeBytes, afterBytes] = [start(before), start(after)];
  const loaded = (started: ReturnType<typeof start>) =>
    Promise.all(
      started.map(async ({ part, outcome }): Promise<PdfPart> => {
        const got = await outcome;
        if ('error' in got) throw got.error;
        return { pdf: got.pdf, name: part.name, fallbackTitle: part.fallbackTitle };
      }),
    );
  return {
    empty: false,
    async during(print) {
      try {
        return await print;
      } catch (error) {
        downloads.abort();
        throw error;
      }
    },
    async mergeInto(pdf) {
      let prepended: PdfPart[], appended: PdfPart[];
      try {
        [prepended, appended] = [await loaded(beforeBytes), await loaded(afterBytes)];
      } catch (error) {
        // One part failed: the others' downloads are of no use any more.
        downloads.abort();
        throw error;
      }
      return mergePdfs({ pdf, name: 'the rendered document', fallbackTitle: MAIN_TITLE }, prepended, appended, { maxPages: deps.limits.maxPages });
    },
  };
}
