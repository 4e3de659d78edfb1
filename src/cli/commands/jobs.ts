/**
 * `imprint jobs`: the team's jobs on the service (api.md Part D): list, show one, wait for one
 * and download its PDFs, cancel one, fetch its zip. Remote mode only: a job lives on the service.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { isDeliveredRow, type JobDetails, type JobSummary } from '../../client/job-types.js';
import { streamFileAtomically } from '../../core/atomic-file.js';
import { ImprintError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { readManifest } from '../jobs/job-manifest.js';
import { jobsApi, requireRemoteMode } from '../jobs/jobs-api.js';
import { done, note } from '../ui/status.js';
import { guideFile } from '../../core/guides.js';
import { formatTable } from '../ui/table.js';

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('expected a whole number of at least 1.');
  return number;
}

const printJson = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
const text = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** The members a person reads first; the rest are shown after them as the service sent them. */
const KNOWN = new Set(['id', 'status', 'total', 'done', 'failed', 'rows', 'statusUrl']);

function describeJob(job: JobDetails): string {
  const lines = [`Job ${job.id}: ${job.status}`, `  rows: ${job.done} done, ${job.failed} failed, ${job.total} in all`];
  for (const [key, value] of Object.entries(job)) {
    if (!KNOWN.has(key) && value !== undefined && value !== null) lines.push(`  ${key}: ${text(value)}`);
  }
  const failed = (job.rows ?? []).filter((row) => !isDeliveredRow(row));
  if (failed.length) {
    lines.push('  failed rows:');
    for (const row of failed.slice(0, 20)) lines.push(`    row ${row.row}: ${'error' in row ? row.error : ''}`);
    if (failed.length > 20) lines.push(`    ... and ${failed.length - 20} more (--json lists them all)`);
  }
  return `${lines.join('\n')}\n`;
}

const EXAMPLES = [
  '',
  'Jobs run a whole batch on the service: `imprint render <id> --batch rows.jsonl --out-dir out/`',
  'submits one in remote mode and waits, downloading each PDF as it is done. Ctrl-C stops the',
  'waiting only; the job runs on, and these commands find it again.',
  '',
  'Examples:',
  '  $ imprint jobs                                  # recent jobs, newest first',
  '  $ id=$(imprint render invoice --batch rows.csv --out-dir out/ --detach)',
  '  $ imprint jobs show $id                          # status, counts, failed rows',
  '  $ imprint jobs wait $id --out-dir out/           # download the PDFs; files already there are kept',
  '  $ imprint jobs cancel $id                        # rows not started are cancelled (and not counted)',
  '  $ imprint jobs archive $id -o invoices.zip       # every PDF of the job in one zip',
  '',
  `Jobs need remote mode (\`imprint login\`, or --api-url and --api-key). See ${guideFile('jobs-cli')}.`,
].join('\n');

export function registerJobs(program: Command, context: () => CliContext) {
  const api = (what: string) => {
    requireRemoteMode(context(), what);
    return jobsApi(context());
  };

  const jobs = program
    .command('jobs')
    .description('list, follow, download and cancel batch jobs on the Imprint service (remote mode)')
    .addHelpText('after', EXAMPLES);

  // The default subcommand, so `imprint jobs` lists; its options are its own, so that
  // `jobs show <id> --json` is not taken for a list's --json.
  jobs
    .command('list', { isDefault: true })
    .alias('ls')
    .description("the team's recent jobs, newest first (the default)")
    .option('--limit <n>', 'how many jobs to list (default: the service\'s page size)', positiveInteger)
    .option('--before <cursor>', 'list the jobs older than this (a page\'s "next", shown with --json)')
    .option('--json', 'print the service\'s JSON')
    .action(async (flags: { limit?: number; before?: string; json?: boolean }) => {
      const page = await api('`imprint jobs`').list({ limit: flags.limit, before: flags.before });
      if (flags.json) {
        printJson(page);
        return;
      }
      if (page.jobs.length === 0) {
        note('No jobs yet. Submit one with `imprint render <id> --batch rows.jsonl --out-dir out/` in remote mode.');
        return;
      }
      const when = (job: JobSummary) => text(job.createdAt);
      const rows = page.jobs.map((job) => [job.id, job.status, `${job.done}/${job.total}`, String(job.failed), when(job)]);
      process.stdout.write(formatTable(['ID', 'STATUS', 'DONE', 'FAILED', 'CREATED'], rows, !process.stdout.isTTY));
      if (page.next) note(`Older jobs: \`imprint jobs --before ${page.next}\`.`);
    });

  jobs
    .command('show')
    .description("one job's status, counts and failed rows")
    .argument('<id>', 'the job id (from `imprint jobs` or a --detach)')
    .option('--json', "print the service's JSON, every row's outcome included")
    .action(async (id: string, flags: { json?: boolean }) => {
      const job = await api('`imprint jobs show`').get(id);
      if (flags.json) printJson(job);
      else process.stdout.write(describeJob(job));
    });

  jobs
    .command('wait')
    .description("wait for a job and download its PDFs as they finish; files already there are kept, not fetched again")
    .argument('<id>', 'the job id')
    .requiredOption('--out-dir <dir>', 'the folder the PDFs are written to (the one the batch was given keeps its file names)')
    .option('--summary <file>', "write every row's outcome as JSON")
    .action(async (id: string, flags: { outDir: string; summary?: string }) => {
      const jobsCalls = api('`imprint jobs wait`');
      const outDir = path.resolve(flags.outDir);
      try {
        fs.mkdirSync(outDir, { recursive: true });
      } catch (error) {
        throw new ImprintError('OUTPUT_FAILED', `Cannot write into ${outDir}: ${(error as Error).message}. Choose another folder with --out-dir.`, { cause: error });
      }
      const manifest = readManifest(outDir, id);
      // The progress display (ora) loads only for a wait.
      const { watchJob } = await import('../jobs/watch-job.js');
      await watchJob(jobsCalls, {
        jobId: id,
        outDir,
        names: manifest?.rows,
        keepExisting: true,
        settled: [],
        report: { source: manifest?.source ?? null },
        summary: flags.summary,
        label: `Job ${id}`,
      });
    });

  jobs
    .command('cancel')
    .description('cancel the rows of a job not yet started (they are not counted); rows done stay downloadable')
    .argument('<id>', 'the job id')
    .option('--json', "print the service's answer")
    .action(async (id: string, flags: { json?: boolean }) => {
      const calls = api('`imprint jobs cancel`');
      const answered = (await calls.cancel(id)) ?? (await calls.get(id));
      if (flags.json) {
        printJson(answered);
        return;
      }
      const cancelled = typeof answered.cancelled === 'number' ? `, ${answered.cancelled} cancelled` : '';
      const counts = `${answered.done} of ${answered.total} rows done, ${answered.failed} failed${cancelled}`;
      if (answered.status === 'completed' || answered.status === 'failed') done(`Job ${id} had already finished (${answered.status}: ${counts}); nothing was cancelled.`);
      else done(`Cancelled job ${id}: ${counts}. Rows under way finish; \`imprint jobs wait ${id} --out-dir <dir>\` downloads what was rendered.`);
    });

  jobs
    .command('archive')
    .description("every finished PDF of a job in one zip, named by the job's name pattern")
    .argument('<id>', 'the job id')
    .requiredOption('-o, --output <file>', 'the zip file to write')
    .action(async (id: string, flags: { output: string }) => {
      const calls = api('`imprint jobs archive`');
      const file = path.resolve(flags.output);
      // Streamed into a temp file beside the target, renamed when whole: never half a zip under its name.
      await streamFileAtomically(file, (into) => calls.archive(id, into));
      done(`Wrote ${path.relative(process.cwd(), file) || file} (${(fs.statSync(file).size / 1024).toFixed(1)} KiB)`);
    });
}
