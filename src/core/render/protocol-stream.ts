/**
 * A DevTools protocol stream (`Page.printToPDF` with `transferMode: 'ReturnAsStream'`) read in
 * chunks with `IO.read`, as Puppeteer's page.createPDFStream does (common/util.js,
 * getReadableFromProtocolStream), with a chunk size of ours rather than Chromium's choice. No
 * chunk is bigger than `chunkBytes`, so no message over the pipe, and no string in Node, grows
 * with the document (a base64 answer is the whole file and a third again, as the message and
 * again as its parse).
 *
 * The handle is closed on every path: a stream left open keeps the PDF in the browser process.
 */
import os from 'node:os';
import type { CDPSession } from 'puppeteer-core';
import { ImprintError } from '../errors.js';

/**
 * 64 KiB a read: on a 500-page report (24 MiB) as fast as 1 and 8 MiB reads, and the only size
 * that grew Node's resident memory by nothing measurable (bench/print-transfer.ts).
 */
export const PROTOCOL_CHUNK_BYTES = 64 << 10;

/**
 * Chromium keeps a streamed print in a file of its own in its temporary folder (the TMPDIR it
 * was started with, the service's), and answers IO.read with "Read failed" when that file could
 * not be made or written: the folder missing, not a folder, not writable, or full. Without this
 * the service answered it as RENDER_FAILED, "The page failed during the render", blaming the
 * document for its operator's folder; said so here, with what to do.
 */
function streamFailure(error: unknown): unknown {
  if (!(error instanceof Error) || !/\bRead failed\b/.test(error.message)) return error;
  return new ImprintError(
    'INTERNAL',
    `Chromium could not hand back the printed PDF: it keeps the print of a long document in a file in its temporary folder (TMPDIR, ${os.tmpdir()}), and that file could not be written or read (${error.message.split('\n')[0]}). Make TMPDIR a writable folder with room for the biggest documents, then try again.`,
    { cause: error },
  );
}

export async function* readProtocolStream(cdp: CDPSession, handle: string, chunkBytes = PROTOCOL_CHUNK_BYTES): AsyncGenerator<Buffer> {
  try {
    for (;;) {
      const { data, base64Encoded, eof } = await cdp.send('IO.read', { handle, size: chunkBytes }).catch((error: unknown) => {
        throw streamFailure(error);
      });
      if (data.length > 0) yield Buffer.from(data, base64Encoded ? 'base64' : 'latin1');
      if (eof) return;
    }
  } finally {
    await cdp.send('IO.close', { handle });
  }
}
