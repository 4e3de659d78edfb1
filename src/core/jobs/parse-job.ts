/**
 * A job's body (api.md Part D) read with the same rules as an A1/A2 body: the render options
 * by core/render-request.ts, `version` by template-version.ts. A1 jobs name their template in
 * `template` (what A1 carries in its path); without it a job is an A2 job whose rows are
 * `{ html?, url? }`. Row contents are judged per row when the row renders (a bad row fails
 * alone); only the shape of the list is judged here.
 */
import { ImprintError } from '../errors.js';
import { parseRenderOptions, type RenderOptions } from '../render-request.js';
import { parseTemplateVersion } from '../template-version.js';
import type { RowInput } from './job-types.js';

/** Rows per job: enough for a month's invoices in one call, small enough to store in one transaction. */
export const MAX_JOB_ROWS = 10_000;
const MAX_NAME_PATTERN = 200;

export interface JobRequest {
  template?: string;
  version?: number;
  options: RenderOptions;
  rows: RowInput[];
  name?: string;
  webhookUrl?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

export function parseJobRequest(body: unknown): JobRequest {
  if (!isObject(body)) throw new ImprintError('INVALID_INPUT', 'Invalid body: send a JSON object, e.g. {"template": "invoice", "rows": [{...}, {...}]}.');
  // parseRenderOptions reads only its own fields (format, size, orientation, tagged, deterministic, metadata).
  const options = parseRenderOptions(body);
  const { template, rows, name, webhook } = body;
  if (template !== undefined && (typeof template !== 'string' || template === '')) {
    throw new ImprintError('INVALID_INPUT', 'Invalid template: expected the template\'s id or UUID as a string, e.g. "invoice".');
  }
  if (template === undefined && body.version !== undefined) throw new ImprintError('INVALID_INPUT', 'Invalid version: only a job of a template ("template") has versions.');
  if (!Array.isArray(rows) || rows.length === 0) {
    throw new ImprintError('INVALID_INPUT', `Invalid rows: expected a non-empty array of ${template === undefined ? '{ "html"?, "url"? } objects' : 'props objects'}.`);
  }
  if (rows.length > MAX_JOB_ROWS) throw new ImprintError('INVALID_INPUT', `Too many rows: ${rows.length}; a job takes at most ${MAX_JOB_ROWS}. Split them into several jobs.`);
  rows.forEach((row, index) => {
    if (!isObject(row)) throw new ImprintError('INVALID_INPUT', `Invalid rows[${index}]: expected a JSON object${template === undefined ? ' with "html" and/or "url"' : ' of props'}.`);
  });
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME_PATTERN)) {
    throw new ImprintError('INVALID_INPUT', `Invalid name: expected a file-name pattern of at most ${MAX_NAME_PATTERN} characters, e.g. "{{invoiceNo}}.pdf".`);
  }
  let webhookUrl: string | undefined;
  if (webhook !== undefined) {
    if (!isObject(webhook) || typeof webhook.url !== 'string') throw new ImprintError('INVALID_INPUT', 'Invalid webhook: expected {"url": "https://..."}.');
    webhookUrl = webhook.url;
  }
  return {
    template: template as string | undefined,
    version: body.version === undefined ? undefined : parseTemplateVersion(body.version),
    options,
    rows: rows as RowInput[],
    name: name as string | undefined,
    webhookUrl,
  };
}
