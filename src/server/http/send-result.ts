/**
 * A3 on the wire: the PDF bytes as application/pdf, or the base64/json body as JSON. A spooled
 * PDF (core/spool/spooled-pdf.ts) is streamed from its file in chunks, its length told first,
 * and the file removed once the answer is over, sent whole or cut short.
 */
import type { FastifyReply } from 'fastify';
import type { RenderResult } from '../../core/result-forms.js';
import { isSpooled } from '../../core/spool/spooled-pdf.js';

export function sendResult(reply: FastifyReply, result: RenderResult, fileName: string) {
  if (result.format === 'pdf') {
    const { pdf } = result;
    reply.code(200).type('application/pdf').header('Content-Disposition', `inline; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf"`);
    if (!isSpooled(pdf)) return reply.send(pdf);
    reply.raw.once('close', () => {
      pdf.dispose().catch((error: unknown) => reply.log.error({ err: error, file: pdf.file }, 'A spooled PDF could not be removed after its answer.'));
    });
    return reply.header('Content-Length', pdf.bytes).send(pdf.stream());
  }
  return reply.code(200).type('application/json').send(result.body);
}
