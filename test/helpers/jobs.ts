/**
 * Helpers for tests of jobs (api.md Part D): the example invoice's rows, each one told apart by
 * its invoice number and customer, waiting for a job to reach a state by polling its status
 * with a deadline (the status is the event a caller has), and reading a job's stream.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { INPUTS } from './cli.js';

export const INVOICE_DIR = path.join(INPUTS, 'templates-example', 'invoice');
export const INVOICE_FILE = path.join(INVOICE_DIR, 'Invoice.tsx');
const invoiceProps = JSON.parse(fs.readFileSync(path.join(INVOICE_DIR, 'props.json'), 'utf8')) as Record<string, unknown> & { customer: Record<string, unknown> };

/** Row `n` (from 1) of a batch of invoices: its own number and customer. */
export function invoiceRow(n: number): Record<string, unknown> {
  return { ...invoiceProps, invoiceNo: `INV-${String(n).padStart(4, '0')}`, customer: { ...invoiceProps.customer, name: `Customer ${n} Ltd` } };
}

export const FINAL = ['completed', 'failed', 'cancelled'];

/**
 * Polls `read` every `everyMs` until `done` holds for its answer; fails with the last answer at the
 * deadline. A job of long rows can be polled less often, leaving the cores to its render.
 */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, deadlineMs = 180_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what}; last seen: ${JSON.stringify(value).slice(0, 2000)}`);
    await sleep(everyMs);
  }
}

/** Every line of a job's stream (GET /api/jobs/{id}/stream on the service at `baseUrl`), read to its end. */
export async function readJobStream(baseUrl: string, id: string, key: string): Promise<any[]> {
  const reply = await request(`${baseUrl}/api/jobs/${id}/stream`, { headers: { authorization: `Bearer ${key}` } });
  const text = await reply.body.text();
  assert.equal(reply.statusCode, 200, text);
  assert.match(String(reply.headers['content-type']), /^application\/x-ndjson/);
  assert.ok(text.endsWith('\n'), 'the stream ends with a whole line');
  return text.trimEnd().split('\n').map((line) => JSON.parse(line));
}
