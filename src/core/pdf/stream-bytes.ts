/**
 * A PDF stream's decoded bytes, with a ceiling on what decoding may produce. pdf-lib's own
 * decoder inflates without a limit, so a stream of 0.6 MB that inflates to 600 MiB (a
 * "compression bomb" in a stranger's invoice) took 1.26 GB before the string holding it failed
 * (issue 41, case 7). Here zlib stops at the ceiling (maxOutputLength) and the caller is told
 * what was too large. Only what the PDFs Imprint reads use is decoded: no filter, or one
 * FlateDecode without a predictor; anything else is refused by name rather than decoded unbounded.
 */
import { constants, inflateSync } from 'node:zlib';
import type { PDFRawStream } from '@cantoo/pdf-lib';
import { ImprintError } from '../errors.js';
import { formatBytes } from '../limits/format-bytes.js';

type PdfLib = typeof import('@cantoo/pdf-lib');

/** The names of the stream's filters (/Filter: a name or an array of names), in the order they decode. */
function filterNames({ PDFName, PDFArray }: PdfLib, stream: PDFRawStream): string[] {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  if (filter === undefined) return [];
  const items = filter instanceof PDFArray ? filter.asArray().map((item) => stream.dict.context.lookup(item)) : [filter];
  return items.map((item) => (item instanceof PDFName ? item.decodeText() : String(item)));
}

const hasDecodeParms = ({ PDFName }: PdfLib, stream: PDFRawStream) => stream.dict.has(PDFName.of('DecodeParms')) || stream.dict.has(PDFName.of('DP'));

/**
 * The stream decoded, at most `maxBytes` (`pdfLib`: the loaded module, loadPdfLib); `what` names it in the errors ("the attached factur-x.xml").
 * @throws ImprintError INVALID_INPUT when it decodes to more, uses another filter, or its data is not valid Flate.
 */
export function decodeStreamCapped(pdfLib: PdfLib, stream: PDFRawStream, maxBytes: number, what: string): Buffer {
  const filters = filterNames(pdfLib, stream);
  const withParameters = hasDecodeParms(pdfLib, stream);
  const raw = Buffer.from(stream.contents.buffer, stream.contents.byteOffset, stream.contents.byteLength);
  const tooLarge = () => new ImprintError('INVALID_INPUT', `${what} is larger than ${formatBytes(maxBytes)} once decompressed; Imprint reads no more than that. If the file is genuine, extract it with another tool (e.g. pdfdetach) and check the XML itself.`);
  if (filters.length === 0) {
    if (raw.length > maxBytes) throw tooLarge();
    return raw;
  }
  if (filters.length > 1 || filters[0] !== 'FlateDecode' || withParameters) {
    throw new ImprintError('INVALID_INPUT', `${what} is encoded with /${filters.join(' /')}${withParameters ? ' and decode parameters' : ''}, which Imprint does not read; PDF writers store attachments with /FlateDecode alone.`);
  }
  try {
    // Z_SYNC_FLUSH: a stream cut short (common in PDFs) gives what it holds, as PDF readers do, instead of failing.
    return inflateSync(raw, { maxOutputLength: maxBytes, finishFlush: constants.Z_SYNC_FLUSH });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw new ImprintError('INVALID_INPUT', `${what} is not valid Flate data: ${(error as Error).message}.`, { cause: error });
  }
}
