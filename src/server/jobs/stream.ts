/**
 * GET /api/jobs/{id}/stream (docs/jobs.md, Streaming): a job's finished rows as they finish,
 * PDFs included, on one answer that ends with the job. A client that waits on a job this way
 * makes one request instead of a status poll every few seconds and a download per row; the
 * service sends a PDF this node rendered from memory instead of reading it back from storage.
 *
 * The answer is NDJSON, one object a line:
 * - `{ "job": <the job as GET /api/jobs/{id} shows it, without rows> }`: first, whenever the
 *   counts changed when the store is read again (each `pollMs`), at least every
 *   KEEP_ALIVE_MS (so the connection is never idle), and last, once the job is over;
 * - `{ "row": { row, name, url, expiresAt }, "pdf": "<base64>" }`: a row rendered (its `url`
 *   downloads the same bytes until it expires);
 * - `{ "row": { row, error, code } }`: a row that failed.
 * Every finished row comes once per answer, in the order rows finish; rows finished before
 * the request come first. The answer ends after the last `job` line shows the job over; one
 * that ends without it (the service stopping, a dropped connection) is resumed by asking
 * again, which sends every finished row again: a client skips those it has.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { JobRecord, RowRecord } from '../../core/jobs/job-types.js';
import type { JobEvent, Jobs } from '../../core/jobs/jobs.js';
import { jobView, rowView, type JobUrls } from '../../core/jobs/job-view.js';
import { openRowPdf } from '../../core/jobs/open-row-pdf.js';
import type { Store, Team } from '../../core/store/index.js';

/** The longest a stream stays silent: well under the service's idle bound for a connection (client-timeouts.ts, 30 s by default). */
const KEEP_ALIVE_MS = 10_000;
/** PDFs held in memory for a client that reads slower than the job renders; past this, rows wait as records and their PDF is read from storage when sent. */
const PDFS_HELD = 32;

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

export interface JobStreamDeps {
  store: Store;
  jobs: Jobs;
  urls: JobUrls;
  /** How often the store is read for rows other nodes finished and for the job's state. */
  pollMs: number;
  onError: (error: unknown) => void;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The answer's body; it ends when the job is over or `stop` is aborted (the client left, the service stops). */
export function jobStream(deps: JobStreamDeps, team: Team, first: JobRecord, stop: AbortSignal): PassThrough {
  const out = new PassThrough();
  const events: JobEvent[] = [];
  let wake: (() => void) | undefined;
  const unwatch = deps.jobs.watch(first.id, (event) => {
    // A slow reader does not make the service hold every PDF: past the limit the row is re-read when sent.
    events.push(event.kind === 'row' && events.length >= PDFS_HELD ? { kind: 'row', row: event.row } : event);
    wake?.();
  });
  const onStop = () => wake?.();
  stop.addEventListener('abort', onStop);
  const sent = new Set<number>();
  let lastWrite = 0;
  let lastCounts = '';

  async function write(value: unknown): Promise<void> {
    lastWrite = performance.now();
    if (out.write(`${JSON.stringify(value)}\n`)) return;
    await once(out, 'drain', { signal: stop }).catch(() => undefined);
  }

  async function sendRow(row: RowRecord, pdf?: Buffer): Promise<void> {
    if (sent.has(row.row) || stop.aborted) return;
    sent.add(row.row);
    if (row.state !== 'done') return write({ row: rowView(row, deps.urls) });
    let bytes = pdf;
    if (!bytes && row.token) {
      const opened = await openRowPdf(deps.store, row.token);
      bytes = opened ? await readAll(await opened.open()) : undefined;
    }
    // A PDF gone from storage (expired): the row's URL says so when fetched.
    return write({ row: rowView(row, deps.urls), ...(bytes ? { pdf: bytes.toString('base64') } : {}) });
  }

  async function sendJob(job: JobRecord, always: boolean): Promise<void> {
    const counts = `${job.status} ${job.done} ${job.failed} ${job.cancelled}`;
    if (!always && counts === lastCounts && performance.now() - lastWrite < KEEP_ALIVE_MS) return;
    lastCounts = counts;
    await write({ job: jobView(job, deps.urls) });
  }

  /** Waits for an event, the next look at the store, or the end. */
  const next = (ms: number) =>
    new Promise<void>((resolve) => {
      if (events.length > 0 || stop.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  async function run(): Promise<void> {
    let job: JobRecord | undefined = first;
    await sendJob(job, true);
    while (!stop.aborted) {
      // The job first, then its rows: a job over when read has all its finished rows in the read that follows.
      job = await deps.jobs.get(team, first.id);
      if (!job) return;
      if (job.done + job.failed > sent.size) {
        for (const row of await deps.jobs.rows(first.id)) if (row.state === 'done' || row.state === 'failed') await sendRow(row);
      }
      if (FINISHED.has(job.status)) {
        await sendJob(job, true);
        return;
      }
      await sendJob(job, false);
      const until = performance.now() + deps.pollMs;
      for (let left = deps.pollMs; left > 0 && !stop.aborted; left = until - performance.now()) {
        await next(left);
        let finished = false;
        for (let event = events.shift(); event; event = events.shift()) {
          if (event.kind === 'row') await sendRow(event.row, event.pdf);
          else finished = true;
        }
        if (finished) break;
      }
    }
  }

  run()
    .catch((error: unknown) => {
      // The headers are gone already: the answer ends without its last job line, which tells the client to ask again.
      deps.onError(error);
    })
    .finally(() => {
      unwatch();
      stop.removeEventListener('abort', onStop);
      out.end();
    });
  return out;
}
