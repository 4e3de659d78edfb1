/**
 * `imprint generate --batch rows.jsonl --out-dir out/`: one PDF per row of `{ html?, url? }`
 * (api.md A2: HTML, a page, or HTML injected into a page). In remote mode the rows go to the
 * service as one job (jobs/submit-batch-job.ts); in embedded mode they render here, through
 * the same batch runner as `render --batch`, each page under the same address policy as a
 * single `generate`.
 */
import os from 'node:os';
import type { GenerateRow } from '../../client/job-types.js';
import { ImprintError } from '../../core/errors.js';
import type { RenderOptions } from '../../core/render-request.js';
import { pdfOf } from '../../core/result-forms.js';
import { checkRenderUrl, localUrlAccess } from '../../core/url-access.js';
import { DEFAULT_NAME_PATTERN } from '../batch/name-pattern.js';
import { readRows, type BatchRow } from '../batch/read-rows.js';
import { DEFAULT_RETRY_POLICY } from '../batch/retry.js';
import { runBatch } from '../batch/run-batch.js';
import type { CliContext } from '../context.js';
import { readTextInput } from '../io/read-input.js';
import { jobOptions, jobsApi } from '../jobs/jobs-api.js';
import { submitBatchJob } from '../jobs/submit-batch-job.js';
import { startBatchProgress } from '../ui/batch-progress.js';
import { note } from '../ui/status.js';
import { prepareOutDir, refuseJobFlagsLocally, reportBatch, type BatchRun } from './render-batch.js';

/** A row is `{ html?, url? }`, text each, at least one: anything else fails that row alone. */
export function asGenerateRow(row: BatchRow): BatchRow {
  if (!row.props) return row;
  const { html, url, ...rest } = row.props;
  const extra = Object.keys(rest);
  const problem =
    html === undefined && url === undefined
      ? 'the row has neither "html" nor "url"'
      : (html !== undefined && typeof html !== 'string') || (url !== undefined && typeof url !== 'string')
        ? '"html" and "url" must be text'
        : typeof html === 'string' && html.trim() === ''
          ? '"html" is empty (it would print a blank page)'
          : extra.length
          ? `unknown field${extra.length > 1 ? 's' : ''} ${extra.map((key) => `"${key}"`).join(', ')} (a row has "html" and/or "url")`
          : undefined;
  return problem ? { row: row.row, line: row.line, problem } : row;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function generateBatch(ctx: CliContext, flags: BatchRun, options: RenderOptions, allowLocal: boolean): Promise<void> {
  const backend = ctx.backend();
  const localBrowser = backend.localBrowser;
  const asJob = !localBrowser;
  if (!asJob) refuseJobFlagsLocally(flags, 'this batch renders here, in embedded mode');
  if (asJob && allowLocal) {
    throw new ImprintError('USAGE', '--allow-local works in embedded mode only: in remote mode the service loads the pages, under its operator\'s address policy.');
  }
  const rows = readRows(await readTextInput(flags.batch, 'batch'), flags.batch).map(asGenerateRow);
  if (rows.length === 0) throw new ImprintError('INVALID_INPUT', `${flags.batch === '-' ? 'Standard input' : flags.batch} holds no rows to render.`);
  const { outDir } = flags;
  prepareOutDir(outDir);

  if (asJob) {
    if (flags.concurrency !== undefined) note("--concurrency is not used with a job: the service's pool decides how many rows render at once.");
    const fields = jobOptions(options, { name: flags.name, webhook: flags.webhook });
    return submitBatchJob(jobsApi(ctx), {
      source: 'generate',
      label: 'Generating',
      flags,
      rows,
      outDir,
      body: (sources) => ({ rows: sources as GenerateRow[], ...fields }),
    });
  }

  const concurrency = flags.concurrency ?? os.availableParallelism();
  localBrowser.setConcurrency(concurrency);
  ctx.egress.allowLocal(allowLocal);
  const access = localUrlAccess(allowLocal);
  const render = async (props: Record<string, unknown>) => {
    const { html, url } = props as GenerateRow;
    return pdfOf(await backend.generate({ html, url: url === undefined ? undefined : await checkRenderUrl(url, access) }, options));
  };
  const now = () => performance.now();
  const progress = startBatchProgress(rows.length, 'Generating', now);
  let summary;
  try {
    summary = await runBatch(
      { rows, outDir, namePattern: flags.name ?? DEFAULT_NAME_PATTERN, concurrency, skipExisting: flags.skipExisting, retry: DEFAULT_RETRY_POLICY },
      { render, onRow: (outcome, counts) => progress.row(outcome, counts), now, sleep, random: Math.random },
    );
  } finally {
    progress.stop();
  }
  reportBatch(summary, flags, { source: 'generate' });
}
