/**
 * The e-invoice worker thread's side (off-thread.ts starts it): a model checked, calculated
 * and written to XML away from the service's event loop. A message is one invoice; the answer
 * carries its id and either the calculated invoice and its XML or the error, as data (an error
 * object does not cross threads with its code).
 */
import { parentPort } from 'node:worker_threads';
import { isImprintError } from '../errors.js';
import { prepareEInvoice, writeEInvoiceXml } from './prepare.js';
import type { OffThreadAnswer, OffThreadRequest } from './off-thread-protocol.js';

if (!parentPort) throw new Error('src/core/einvoice/worker.ts runs as a worker thread (off-thread.ts starts it), not on its own.');
const port = parentPort;

port.on('message', ({ id, model, profile, syntax, source }: OffThreadRequest) => {
  let answer: OffThreadAnswer;
  try {
    const calculated = prepareEInvoice(model, profile, source);
    answer = { id, calculated, xml: writeEInvoiceXml(calculated, profile, syntax) };
  } catch (error) {
    answer = isImprintError(error)
      ? { id, error: { code: error.code, message: error.message, details: error.details } }
      : { id, error: { code: 'INTERNAL', message: `The e-invoice could not be written: ${error instanceof Error ? error.stack ?? error.message : String(error)}` } };
  }
  port.postMessage(answer);
});
