/** A3 on the wire: the PDF bytes as application/pdf, or the base64/json body as JSON. */
import type { FastifyReply } from 'fastify';
import type { RenderResult } from '../../core/result-forms.js';

export function sendResult(reply: FastifyReply, result: RenderResult, fileName: string) {
  if (result.format === 'pdf') {
    return reply
      .code(200)
      .type('application/pdf')
      .header('Content-Disposition', `inline; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf"`)
      .send(result.pdf);
  }
  return reply.code(200).type('application/json').send(result.body);
}
