/**
 * `imprint render <id|file> --batch rows.jsonl --out-dir out/`: one PDF per row.
 *
 * In embedded mode (and for a template file) the rows render in this process, `--concurrency`
 * at once; a row the pool has no room for (BUSY) or whose browser crashed is retried
 * (batch/retry.ts), and a failure every row would meet (no such template) stops the batch.
 *
 * In remote mode the batch is ONE job on the service (api.md Part D; jobs/submit-batch-job.ts):
 * not one request per row, so it never meets the service's 429s; the job is refused whole
 * (422) when its rows would pass the team's generation limit, and a row the service cannot
 * render fails alone.
 */
import type { PdfBytes } from '../../core/spool/spooled-pdf.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { ImprintError } from '../../core/errors.js';
import type { RenderOptions } from '../../core/render-request.js';
import { pdfOf } from '../../core/result-forms.js';
import { prepareTemplateFile } from '../../backend/template-file.js';
import { summaryText } from '../batch/progress-text.js';
import { DEFAULT_RETRY_POLICY } from '../batch/retry.js';
import type { BatchSummary } from '../batch/run-batch.js';
import type { CliContext } from '../context.js';
import { readTextInput } from '../io/read-input.js';
import { writeFileAtomically } from '../io/write-output.js';
import { done, note, withStep } from '../ui/status.js';
import { guideFile } from '../../core/guides.js';

// Reading CSV, the row scheduler and the progress spinner load only when a batch runs: a
// single render starts without them (see bench/README.md, one-shot cold start).
const loadBatchRunner = () =>
  Promise.all([import('../batch/read-rows.js'), import('../batch/run-batch.js'), import('../batch/name-pattern.js'), import('../ui/batch-progress.js')]);
// The same for the job machinery, which a batch in remote mode uses instead.
const loadJobs = () => Promise.all([import('../jobs/jobs-api.js'), import('../jobs/submit-batch-job.js')]);

/** The batch's own flags; the render's --props, -o and --format are read only to refuse them. */
export interface BatchFlags {
  batch?: string;
  outDir?: string;
  name?: string;
  concurrency?: number;
  summary?: string;
  skipExisting?: boolean;
  detach?: boolean;
  webhook?: string;
  props?: string;
  output?: string;
  format: RenderOptions['format'];
}

/** A batch as the flags asked for it, checked. */
export interface BatchRun {
  /** The rows file, or "-" for stdin. */
  batch: string;
  outDir: string;
  name?: string;
  concurrency?: number;
  summary?: string;
  skipExisting: boolean;
  /** Remote mode: submit the job and print its id, without waiting (jobs/submit-batch-job.ts). */
  detach: boolean;
  /** Remote mode: the job's webhook URL (api.md Part D). */
  webhook?: string;
  /** A published template's version to render every row with (api.md Part E); the latest when absent. */
  version?: number;
}


function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('expected a whole number of at least 1.');
  return number;
}

export function addBatchOptions(command: Command): Command {
  return command
    .option('--batch <file|->', 'render one PDF per row: JSON Lines, a JSON array, or CSV (dotted headers nest); "-" for stdin')
    .option('--out-dir <dir>', 'with --batch: the folder the PDFs are written to')
    .option('--name <pattern>', 'with --batch: file name from props fields, e.g. "{{invoiceNo}}.pdf"; {{$row}} is the row number')
    .option('--concurrency <n>', 'with --batch, embedded mode: documents rendered at once (default: the number of cores); a job\'s rows render as the service\'s pool allows', positiveInteger)
    .option('--summary <file>', 'with --batch: write every row\'s outcome as JSON')
    .option('--skip-existing', 'with --batch: leave rows whose file is already there (resumes an interrupted batch)')
    .option('--detach', 'with --batch, remote mode: submit the job, print its id and return (then `imprint jobs wait <id> --out-dir <dir>`)')
    .option('--webhook <url>', `with --batch, remote mode: the service calls this URL when the job is over (see ${guideFile('jobs-cli')})`);
}

const BATCH_ONLY = ['outDir', 'name', 'concurrency', 'summary', 'skipExisting', 'detach', 'webhook'] as const;
const flagOf = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * The batch flags, checked in one place: without --batch none of the others may be given (a
 * single render is meant, and this returns undefined); with it, a folder to write into and
 * none of a single render's outputs.
 */
export function checkBatchFlags(flags: BatchFlags): BatchRun | undefined {
  if (flags.batch === undefined) {
    const stray = BATCH_ONLY.find((key) => flags[key] !== undefined);
    if (stray) throw new ImprintError('USAGE', `${flagOf(stray)} goes with --batch <rows file>.`);
    return undefined;
  }
  if (!flags.outDir) throw new ImprintError('USAGE', '--batch writes one PDF per row: give the folder with --out-dir <dir>.');
  if (flags.props !== undefined) throw new ImprintError('USAGE', '--props and --batch cannot be combined: each row of the batch is one set of props.');
  if (flags.output !== undefined) throw new ImprintError('USAGE', '-o/--output is for one document; a batch writes into --out-dir, named by --name.');
  if (flags.format !== 'pdf') throw new ImprintError('USAGE', 'A batch writes PDF files; --format base64/json are for single renders.');
  if (flags.detach && flags.summary !== undefined) {
    throw new ImprintError('USAGE', '--summary records how the rows ended, which --detach does not wait for: pass --summary <file> to `imprint jobs wait <id>` instead.');
  }
  return {
    batch: flags.batch,
    outDir: path.resolve(flags.outDir),
    name: flags.name,
    concurrency: flags.concurrency,
    summary: flags.summary,
    skipExisting: Boolean(flags.skipExisting),
    detach: Boolean(flags.detach),
    webhook: flags.webhook,
  };
}

/** --detach and --webhook make a job on the service: refused where the batch runs in this process. */
export function refuseJobFlagsLocally(flags: BatchRun, why: string): void {
  const flag = flags.detach ? '--detach' : flags.webhook !== undefined ? '--webhook' : undefined;
  if (flag) throw new ImprintError('USAGE', `${flag} submits the batch as a job to an Imprint service, and ${why}. Use remote mode (\`imprint login\`, or --api-url and --api-key), or leave ${flag} out.`);
}

export function prepareOutDir(outDir: string) {
  try {
    fs.mkdirSync(outDir, { recursive: true });
    fs.accessSync(outDir, fs.constants.W_OK);
  } catch (error) {
    throw new ImprintError('OUTPUT_FAILED', `Cannot write into ${outDir}: ${(error as Error).message}. Choose another folder with --out-dir.`, { cause: error });
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function renderBatch(
  ctx: CliContext,
  ref: string,
  asFile: boolean,
  options: RenderOptions,
  flags: BatchRun,
): Promise<void> {
  const [{ readRows }, { runBatch }, { DEFAULT_NAME_PATTERN }, { startBatchProgress }] = await loadBatchRunner();
  const { outDir } = flags;
  // Remote mode sends the whole batch as one job, not one request per row; a file renders here.
  const asJob = !asFile && !ctx.backend().localBrowser;
  if (!asJob) refuseJobFlagsLocally(flags, asFile ? 'a template file renders here (publish it first, then batch its id)' : 'this batch renders here, in embedded mode');
  const rows = readRows(await readTextInput(flags.batch, 'batch'), flags.batch);
  if (rows.length === 0) throw new ImprintError('INVALID_INPUT', `${flags.batch === '-' ? 'Standard input' : flags.batch} holds no rows to render.`);
  prepareOutDir(outDir);

  if (asJob) {
    const [{ jobOptions, jobsApi, templateJob }, { submitBatchJob }] = await loadJobs();
    if (flags.concurrency !== undefined) note('--concurrency is not used with a job: the service\'s pool decides how many rows render at once.');
    const api = jobsApi(ctx);
    const fields = jobOptions(options, { name: flags.name, webhook: flags.webhook });
    return submitBatchJob(api, {
      source: ref,
      label: `Rendering ${ref}`,
      flags,
      rows,
      outDir,
      body: (props) => templateJob(ref, props, fields, flags.version),
    });
  }

  let render: (props: Record<string, unknown>) => Promise<PdfBytes>;
  const backend = asFile ? ctx.embedded() : ctx.backend();
  if (asFile) {
    // Bundled, and its props check derived, once for the whole batch.
    const { artifact, check } = await withStep(`Bundling ${ref}`, () => prepareTemplateFile(ctx.templateCache(), ref), () => undefined);
    const embedded = ctx.embedded();
    render = async (props) => {
      check?.(props, 'The row\'s props');
      return pdfOf((await embedded.renderArtifact(artifact, props, options)).result);
    };
  } else {
    render = (props) => backend.render(ref, props, options, flags.version).then((r) => pdfOf(r.result));
  }
  const concurrency = flags.concurrency ?? os.availableParallelism();
  backend.localBrowser?.setConcurrency(concurrency);

  const now = () => performance.now();
  const progress = startBatchProgress(rows.length, `Rendering ${ref}`, now);
  let summary: BatchSummary;
  try {
    summary = await runBatch(
      // One row more in hand than pages at work: while a row's PDF is finished and written here,
      // the next row already holds the page it freed (the pool still renders `concurrency` at once).
      { rows, outDir, namePattern: flags.name ?? DEFAULT_NAME_PATTERN, concurrency: concurrency + 1, skipExisting: flags.skipExisting, retry: DEFAULT_RETRY_POLICY },
      { render, onRow: (outcome, counts) => progress.row(outcome, counts), now, sleep, random: Math.random },
    );
  } finally {
    progress.stop();
  }

  reportBatch(summary, flags, { template: ref });
}

/** A local batch's end: the summary file, the summary line, and a failure when rows failed or the batch stopped. */
export function reportBatch(summary: BatchSummary, flags: BatchRun, what: Record<string, unknown>): void {
  if (flags.summary) {
    const report = { ...what, input: flags.batch === '-' ? 'stdin' : path.resolve(flags.batch), ...summary };
    writeFileAtomically(path.resolve(flags.summary), `${JSON.stringify(report, null, 2)}\n`);
  }
  done(summaryText(summary, path.relative(process.cwd(), flags.outDir) || '.'));
  if (summary.stoppedBy !== undefined) {
    throw new ImprintError('RENDER_FAILED', `The batch stopped after ${summary.ok} of ${summary.total} rows: ${summary.stoppedBy}`);
  }
  if (summary.failed > 0) {
    const failedRows = summary.rows.filter((row) => row.status === 'failed').map((row) => row.row);
    const listed = failedRows.length > 20 ? `${failedRows.slice(0, 20).join(', ')}, ...` : failedRows.join(', ');
    const see = flags.summary ? ` ${flags.summary} lists every row's outcome.` : ' The reasons are above; --summary <file> records every row\'s outcome.';
    throw new ImprintError('RENDER_FAILED', `${summary.failed} of ${summary.total} rows failed (row${failedRows.length > 1 ? 's' : ''} ${listed}).${see}`);
  }
}
