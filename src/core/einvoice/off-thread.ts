/**
 * An e-invoice checked, calculated and written to XML on a worker thread. On the main thread,
 * a large invoice held the service's event loop: 100,000 lines kept `/healthz` from answering
 * for two minutes (issue 41, case 4). The rules are linear now and a model is bounded
 * (EINVOICE_LIMITS), but 10,000 lines are still about 1.5 s of XML writing, which a service
 * must not spend between two requests. One worker per process takes the invoices in turn; it
 * does not keep the process alive while idle, and one that dies is replaced on the next call.
 * node:worker_threads directly rather than a pool library (piscina): one thread, one message
 * kind, and its lifecycle is these few lines.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ImprintError } from '../errors.js';
import { packageRoot } from '../package-root.js';
import type { CalculatedInvoice } from './calculate.js';
import type { EInvoiceProfile, EInvoiceSyntax } from './model.js';
import type { OffThreadAnswer, OffThreadRequest } from './off-thread-protocol.js';

export interface WrittenEInvoice {
  calculated: CalculatedInvoice;
  xml: string;
}

interface Pending {
  resolve: (written: WrittenEInvoice) => void;
  reject: (error: Error) => void;
}

/** From source (tsx: the tests of src/) the .ts beside this file; from the package, the entry the build writes. */
function workerUrl(): URL {
  if (import.meta.url.endsWith('.ts')) return new URL('./worker.ts', import.meta.url);
  return pathToFileURL(path.join(packageRoot(), 'dist', 'einvoice', 'worker.js'));
}

let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 1;

function failAll(error: Error): void {
  for (const waiting of pending.values()) waiting.reject(error);
  pending.clear();
}

function startedWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(workerUrl());
  started.on('message', (answer: OffThreadAnswer) => {
    const waiting = pending.get(answer.id);
    if (!waiting) return;
    pending.delete(answer.id);
    if (pending.size === 0) started.unref();
    if (answer.error) waiting.reject(new ImprintError(answer.error.code, answer.error.message, { details: answer.error.details }));
    else waiting.resolve({ calculated: answer.calculated, xml: answer.xml });
  });
  // A worker that fails (out of memory, a bug) fails what it holds; the next call starts another.
  started.on('error', (error) => {
    if (worker === started) worker = undefined;
    failAll(new ImprintError('INTERNAL', `The e-invoice worker failed: ${error.message}`, { cause: error }));
  });
  started.on('exit', (code) => {
    if (worker === started) worker = undefined;
    if (pending.size > 0) failAll(new ImprintError('INTERNAL', `The e-invoice worker stopped (exit code ${code}) with invoices in hand.`));
  });
  started.unref();
  return (worker = started);
}

/**
 * `model` checked by EN 16931's rules and the profile's (prepareEInvoice), calculated and
 * written in `syntax`, off the main thread.
 * @throws ImprintError INVALID_INPUT naming every broken rule, as prepareEInvoice does.
 */
export function writeEInvoiceOffThread(model: unknown, profile: EInvoiceProfile, syntax: EInvoiceSyntax, source: string): Promise<WrittenEInvoice> {
  const thread = startedWorker();
  const request: OffThreadRequest = { id: nextId++, model, profile, syntax, source };
  return new Promise<WrittenEInvoice>((resolve, reject) => {
    pending.set(request.id, { resolve, reject });
    thread.ref();
    try {
      thread.postMessage(request);
    } catch (error) {
      // A model that cannot be copied to the thread (a function in it: not data a template may return).
      pending.delete(request.id);
      if (pending.size === 0) thread.unref();
      reject(new ImprintError('INVALID_INPUT', `${source} is not plain data: ${(error as Error).message}`, { cause: error }));
    }
  });
}

/** Stops the worker (a service's shutdown, a test's end); a later call starts another. */
export async function stopEInvoiceWorker(): Promise<void> {
  const running = worker;
  worker = undefined;
  if (running) await running.terminate();
}
