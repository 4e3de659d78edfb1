/**
 * A ceiling on what pdf-lib may inflate (issue 41, case 7: "every inflate has a size cap").
 * pdf-lib inflates a PDF's object and cross-reference streams while it loads the file, and any
 * stream it is asked to decode, into one growing buffer with no limit: a stranger's PDF of 0.6 MB
 * whose object stream inflates to 600 MiB takes that memory and more. Its decoders share one
 * base class (DecodeStream), which grows that buffer in one method; pdf-lib exports no hook, so the
 * method is wrapped once, when pdf-lib is loaded (pdf-lib.ts), and a request past the ceiling
 * throws an error that says what was too large. What Imprint reads of its own PDFs (Chromium's
 * object streams, kilobytes to a few megabytes for thousands of pages) stays far under it.
 */
import { deflateSync } from 'node:zlib';
import { ImprintError } from '../errors.js';
import { formatBytes } from '../limits/format-bytes.js';

/** The most one decoded stream may hold. */
export const MAX_DECODED_STREAM_BYTES = 256 * 1024 * 1024;

type PdfLib = typeof import('@cantoo/pdf-lib');
interface GrowingBuffer {
  ensureBuffer(requested: number): Uint8Array;
}

/** pdf-lib's DecodeStream prototype, found through a decoder it makes (the class itself is not exported). */
function decodeStreamPrototype({ PDFContext, PDFName, PDFRawStream, decodePDFRawStream }: PdfLib): GrowingBuffer | undefined {
  const context = PDFContext.create();
  // A valid (empty) Flate stream: the decoder reads its header when it is made.
  const probe = decodePDFRawStream(PDFRawStream.of(context.obj({ Filter: PDFName.of('FlateDecode') }), deflateSync(new Uint8Array(0))));
  for (let proto = Object.getPrototypeOf(probe); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    if (Object.hasOwn(proto, 'ensureBuffer')) return proto as GrowingBuffer;
  }
  return undefined;
}

const wrapped = new WeakSet<object>();
let hits = 0;

/**
 * How many decodes the ceiling has stopped in this process. pdf-lib catches an error thrown while
 * it parses an object (a malformed object is skipped, not fatal), so a file whose object stream hit
 * the ceiling still loads, without that object: a reader compares this count before and after a
 * load to tell (pdf-invoice.ts). The memory is bounded either way.
 */
export const decodeCeilingHits = (): number => hits;

export const decodeCeilingError = (maxBytes = MAX_DECODED_STREAM_BYTES) =>
  new ImprintError('INVALID_INPUT', `A stream of this PDF is larger than ${formatBytes(maxBytes)} once decompressed; Imprint reads no more than that (a "compression bomb", or a file too large to check).`);

/** Wraps the decoders' buffer growth of this pdf-lib module; once per module. */
export function installDecodeCeiling(pdfLib: PdfLib, maxBytes = MAX_DECODED_STREAM_BYTES): void {
  const proto = decodeStreamPrototype(pdfLib);
  // A pdf-lib whose decoders are built otherwise: nothing to wrap, and a test of this module says so.
  if (!proto) throw new Error('pdf-lib has no DecodeStream.ensureBuffer to bound: its decoders changed; update src/core/pdf/decode-ceiling.ts.');
  if (wrapped.has(proto)) return;
  wrapped.add(proto);
  const grow = proto.ensureBuffer;
  proto.ensureBuffer = function bounded(this: GrowingBuffer, requested: number): Uint8Array {
    if (requested > maxBytes) {
      hits++;
      throw decodeCeilingError(maxBytes);
    }
    return grow.call(this, requested);
  };
}
