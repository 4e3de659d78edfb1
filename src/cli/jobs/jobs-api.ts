/**
 * The job calls of the remote API as the CLI makes them: the client's errors explained for a
 * person (remote-errors.ts), and a clear refusal in embedded mode, where there is no service
 * to hold a job.
 */
import type { JobRequest } from '../../client/job-types.js';
import { ImprintError } from '../../core/errors.js';
import type { RenderOptions } from '../../core/render-request.js';
import { outputFields } from '../../backend/remote.js';
import { explainRemoteError } from '../../backend/remote-errors.js';
import type { CliContext } from '../context.js';

/** `what`: the command, for the message ("imprint jobs", "--detach"). */
export function requireRemoteMode(ctx: CliContext, what: string): void {
  if (ctx.mode() === 'remote') return;
  throw new ImprintError(
    'USAGE',
    `${what} needs an Imprint service: jobs run on the service, not on this machine, and this command runs in embedded mode. ` +
      'Log in with `imprint login` (or pass --api-url and --api-key, env IMPRINT_API_URL and IMPRINT_API_KEY), or add --remote. ' +
      'In embedded mode `imprint render <id> --batch rows.jsonl --out-dir out/` renders the rows here, in this process.',
  );
}

export function jobsApi(ctx: CliContext) {
  const remote = ctx.remote();
  const { client } = remote;
  const apiUrl = client.baseUrl;
  const explained =
    <A extends unknown[], T>(call: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      try {
        return await call(...args);
      } catch (error) {
        throw explainRemoteError(error, apiUrl);
      }
    };
  return {
    apiUrl,
    submit: explained(client.submitJob),
    get: explained(client.getJob),
    list: explained(client.listJobs),
    cancel: explained(client.cancelJob),
    download: explained(client.downloadFile),
    // Not explained: a stream that fails is followed by polling (follow-job.ts), whose errors are.
    stream: client.streamJob,
    archive: explained(client.downloadArchive),
    requestCount: () => client.requestCount(),
  };
}

export type JobsApi = ReturnType<typeof jobsApi>;

/** A job's document options: a render's, without `format` (a job's rows are always stored PDFs with download URLs). */
export function jobOptions(options: RenderOptions, extra: { name?: string; webhook?: string }) {
  const { format: _format, ...fields } = outputFields(options);
  return { ...fields, ...(extra.name ? { name: extra.name } : {}), ...(extra.webhook ? { webhook: { url: extra.webhook } } : {}) };
}

/** A1 as a job: the template and one props object per row. */
export const templateJob = (template: string, rows: Record<string, unknown>[], options: ReturnType<typeof jobOptions>, version?: number): JobRequest => ({
  template,
  rows,
  ...options,
  ...(version === undefined ? {} : { version }),
});
