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
import type { CDPSession } from 'puppeteer-core';

/**
 * 64 KiB a read: on a 500-page report (24 MiB) as fast as 1 and 8 MiB reads, and the only size
 * that grew Node's resident memory by nothing measurable (bench/print-transfer.ts).
 */
export const PROTOCOL_CHUNK_BYTES = 64 << 10;

export async function* readProtocolStream(cdp: CDPSession, handle: string, chunkBytes = PROTOCOL_CHUNK_BYTES): AsyncGenerator<Buffer> {
  try {
    for (;;) {
      const { data, base64Encoded, eof } = await cdp.send('IO.read', { handle, size: chunkBytes });
      if (data.length > 0) yield Buffer.from(data, base64Encoded ? 'base64' : 'latin1');
      if (eof) return;
    }
  } finally {
    await cdp.send('IO.close', { handle });
  }
}
