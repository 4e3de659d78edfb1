/**
 * A job's body (api.md Part D) read with the same rules as an A1/A2 body: the render options
 * by core/render-request.ts, `version` by template-version.ts, an A2 row's html and url by
 * html-source.ts. A1 jobs name their template in `template` (what A1 carries in its path);
 * without it a job is an A2 job whose rows are `{ html?, url? }`.
 *
 * Everything a row can be refused for without rendering it is refused here, at submit, with
 * 400 naming the field: a body that only looks like a job (an unknown field, rows an A2 job
 * cannot render, a row too deep or too large to store) must not be accepted with 202 and then
 * fail row by row. What only rendering can tell (wrong props, a url the page cannot load)
 * fails the row alone, later.
 */
import { ImprintError } from '../errors.js';
import { controlCharacter } from '../xml-chars.js';
import { parseHtmlSourceFields } from '../html-source.js';
import { formatBytes } from '../limits/format-bytes.js';
import { jsonDepth } from '../limits/props-depth.js';
import { DEFAULT_RENDER_LIMITS } from '../limits/render-limits.js';
import { nearMiss } from '../near-miss.js';
import { parseRenderOptions, RENDER_OPTION_FIELDS, type RenderOptions } from '../render-request.js';
import { parseTemplateVersion } from '../template-version.js';
import type { RowInput } from './job-types.js';

/** Rows per job: enough for a month's invoices in one call, small enough to store in one transaction. */
export const MAX_JOB_ROWS = 10_000;
const MAX_NAME_PATTERN = 200;

/** What one row may be: as deep and as large as the props of one render request. */
export interface RowLimits {
  /** The service's props depth limit (RenderLimits.maxPropsDepth). */
  maxDepth: number;
  /** The service's request body limit: a row holds no more than one render's body could. */
  maxBytes: number;
}

/**
 * Past this a row is never stored, whatever the settings: storing serialises it, and
 * JSON.stringify recurses, so a row thousands of levels deep would overflow the stack.
 */
const ROW_DEPTH_CEILING = 1000;

export const DEFAULT_ROW_LIMITS: RowLimits = { maxDepth: DEFAULT_RENDER_LIMITS.maxPropsDepth, maxBytes: 10 * 1024 * 1024 };

/** Every field a job body may have (api.md Part D; the render options of A1/A2). */
const JOB_FIELDS: readonly string[] = ['template', 'version', 'rows', 'name', 'webhook', ...RENDER_OPTION_FIELDS];

/** Names a client writes for a job's fields, taken from elsewhere in the API or from habit. */
const CONFUSIONS: Record<string, string> = {
  documentId: 'template',
  templateId: 'template',
  template_id: 'template',
  id: 'template',
  uuid: 'template',
  props: 'rows',
  items: 'rows',
  documents: 'rows',
  data: 'rows',
  webhookUrl: 'webhook',
  webhook_url: 'webhook',
  callback: 'webhook',
  callbackUrl: 'webhook',
  fileName: 'name',
  filename: 'name',
  namePattern: 'name',
};

export interface JobRequest {
  template?: string;
  version?: number;
  options: RenderOptions;
  rows: RowInput[];
  name?: string;
  webhookUrl?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function refuseUnknownFields(body: Record<string, unknown>): void {
  for (const field of Object.keys(body)) {
    if (JOB_FIELDS.includes(field)) continue;
    const meant = nearMiss(field, JOB_FIELDS, CONFUSIONS);
    const shown = JSON.stringify(field.slice(0, 60));
    throw new ImprintError(
      'INVALID_INPUT',
      meant
        ? `Unknown field ${shown} in the job: did you mean "${meant}"? A job's fields are ${JOB_FIELDS.join(', ')}.`
        : `Unknown field ${shown} in the job: a job's fields are ${JOB_FIELDS.join(', ')}.`,
    );
  }
}

/** A row as deep or as large as no render request could be is refused before it is stored. */
function checkRowSize(row: RowInput, index: number, limits: RowLimits): void {
  const maxDepth = Math.min(limits.maxDepth, ROW_DEPTH_CEILING);
  if (jsonDepth(row, maxDepth) > maxDepth) {
    throw new ImprintError(
      'INVALID_INPUT',
      `Invalid rows[${index}]: it nests more than ${maxDepth} levels deep (objects and arrays), the most this service accepts. Flatten the data the template receives.`,
    );
  }
  const bytes = Buffer.byteLength(JSON.stringify(row));
  if (bytes > limits.maxBytes) {
    throw new ImprintError('INVALID_INPUT', `Invalid rows[${index}]: ${formatBytes(bytes)} of JSON, more than the ${formatBytes(limits.maxBytes)} this service accepts for one document's input.`);
  }
}

export function parseJobRequest(body: unknown, limits: RowLimits = DEFAULT_ROW_LIMITS): JobRequest {
  if (!isObject(body)) throw new ImprintError('INVALID_INPUT', 'Invalid body: send a JSON object, e.g. {"template": "invoice", "rows": [{...}, {...}]}.');
  refuseUnknownFields(body);
  // parseRenderOptions reads only its own fields (format, size, orientation, tagged, deterministic, metadata).
  const options = parseRenderOptions(body);
  const { template, rows, name, webhook } = body;
  if (template !== undefined && (typeof template !== 'string' || template === '')) {
    throw new ImprintError('INVALID_INPUT', 'Invalid template: expected the template\'s id or UUID as a string, e.g. "invoice".');
  }
  if (template === undefined && body.version !== undefined) throw new ImprintError('INVALID_INPUT', 'Invalid version: only a job of a template ("template") has versions.');
  // As on POST /api/generate (engine.ts): refused here, not row by row once the job runs.
  if (template === undefined && options.einvoice) {
    throw new ImprintError('INVALID_INPUT', 'Invalid einvoice: an e-invoice comes from a template\'s `einvoice` mapping, so only a job of a template ("template") takes it; a job of html/url rows takes pdfa only.');
  }
  if (!Array.isArray(rows) || rows.length === 0) {
    throw new ImprintError('INVALID_INPUT', `Invalid rows: expected a non-empty array of ${template === undefined ? '{ "html"?, "url"? } objects' : 'props objects'}.`);
  }
  if (rows.length > MAX_JOB_ROWS) throw new ImprintError('INVALID_INPUT', `Too many rows: ${rows.length}; a job takes at most ${MAX_JOB_ROWS}. Split them into several jobs.`);
  rows.forEach((row, index) => {
    if (!isObject(row)) throw new ImprintError('INVALID_INPUT', `Invalid rows[${index}]: expected a JSON object${template === undefined ? ' with "html" and/or "url"' : ' of props'}.`);
    checkRowSize(row, index, limits);
    // An A2 row's other fields stay: the name pattern may use them ({{invoiceNo}}.pdf).
    if (template === undefined) parseHtmlSourceFields(row, `rows[${index}].`);
  });
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME_PATTERN)) {
    throw new ImprintError('INVALID_INPUT', `Invalid name: expected a file-name pattern of at most ${MAX_NAME_PATTERN} characters, e.g. "{{invoiceNo}}.pdf".`);
  }
  const control = typeof name === 'string' ? controlCharacter(name) : undefined;
  if (control) throw new ImprintError('INVALID_INPUT', `Invalid name: it holds ${control}, a control character no file name can carry; remove it.`);
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
