/**
 * The HTTP client of the contract (api.md), on undici. Every non-2xx answer becomes an
 * ApiError carrying the status, the server's `error` text, its `code` and its Retry-After; a
 * BUSY answer (429: the service's render queue is full) is an ApiBusyError, so callers can
 * wait and try again; a request that never got an answer becomes an ApiUnreachableError
 * naming the URL. Nothing here prints or decides what a person should do about it: the CLI does.
 */
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { ApiBusyError, ApiError, ApiUnreachableError, parseRetryAfter } from './errors.js';
import type { DocumentRequest, DocumentResult, GenerateRequest, Health, Me, Published, PublishRequest, RolledBack, TemplateDetails, TemplateSummary, EInvoiceRequest } from './types.js';
import type { JobDetails, JobPage, JobRequest, JobRowOutcome, JobStreamEvent, SubmittedJob } from './job-types.js';
import { ImprintError } from '../core/errors.js';
import { classifyIp } from '../core/net/ip-class.js';
import { controlCharacter } from '../core/xml-chars.js';
import { redactSecrets, withoutCredentials } from '../core/redact-secrets.js';
import { imprintUserAgent } from '../core/version.js';

export interface WebLoginCode {
  code: string;
  pollToken: string;
  expiresAt: string;
  /** Seconds between polls. */
  interval: number;
  /** The dashboard page where the person approves the code. */
  verificationUrl: string;
}

export type WebLoginPoll = { status: 'pending' | 'expired' } | { status: 'approved'; team: string; keyId: string; key: string };

export interface ClientOptions {
  /** The service's base URL, e.g. https://pdf.example.org (a path prefix is kept). */
  baseUrl: string;
  apiKey?: string;
  /** Default: a connection pool of the client's own, closed by `close()`. */
  dispatcher?: Dispatcher;
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the service running on that port?)',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'the answer stopped arriving',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate does not match the host',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
};

function unreachableReason(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  // undici wraps socket errors; the useful code may sit in a cause or an AggregateError.
  for (let current = error as { code?: string; cause?: unknown; errors?: unknown[] } | undefined; current && !seen.has(current); ) {
    seen.add(current);
    if (current.code && REASONS[current.code]) return REASONS[current.code];
    current = (current.cause ?? current.errors?.[0]) as typeof current;
  }
  return undefined;
}

/** An error answer's `error` text and `code`; an answer without them (a proxy's page) described as it came. */
function errorAnswer(raw: Buffer, contentType: string | undefined): { message: string; code?: string } {
  if (contentType?.includes('json')) {
    try {
      const parsed = JSON.parse(raw.toString('utf8')) as { error?: unknown; code?: unknown };
      if (typeof parsed?.error === 'string') return { message: parsed.error, ...(typeof parsed.code === 'string' ? { code: parsed.code } : {}) };
    } catch {
      // Not JSON after all: the text below says what arrived.
    }
  }
  // A gateway's page may echo the request, the authorization header with it.
  const text = redactSecrets(raw.toString('utf8').trim().slice(0, 300));
  return { message: text ? `an answer without an error message: ${text}` : 'an empty answer' };
}

/** The service's base URL as given, checked: an http(s) URL, else a usage error saying what to write (not undici's or Node's own error). */
export function parseApiUrl(baseUrl: string): URL {
  const shown = JSON.stringify(redactSecrets(baseUrl));
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new ImprintError('USAGE', `Invalid API URL ${shown}: give an absolute address such as https://pdf.example.org or http://127.0.0.1:8080.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ImprintError('USAGE', `Invalid API URL ${shown}: it must start with http:// or https://.`);
  return parsed;
}

/**
 * A key goes into a header: a line break or control character in it (a key pasted with its
 * newline) would make undici throw its own error, or split the header. Said without the key.
 */
function checkKeyText(apiKey: string): void {
  if (controlCharacter(apiKey) || apiKey.trim() !== apiKey) {
    throw new ImprintError('USAGE', 'The API key holds a line break, a space at an end or a control character: copy it again, whole and alone (it starts with imp_).');
  }
}

/** This machine: `localhost`, or an address the URL-policy's classifier calls loopback (127/8, ::1, their IPv6 wrappings). */
const isLoopbackHost = (hostname: string) => hostname.toLowerCase() === 'localhost' || classifyIp(hostname.replace(/^\[|\]$/g, ''))?.class === 'loopback';

/** Plain http to another machine: whoever sits on the way reads every request, the key in it. */
export const isPlainHttpToAnotherMachine = (url: URL) => url.protocol === 'http:' && !isLoopbackHost(url.hostname);

const warnedAbout = new Set<string>();
/** Once per service and process, through Node's warnings (shown on stderr; a program may listen for them). */
function warnPlainHttpKey(url: URL): void {
  if (warnedAbout.has(url.host)) return;
  warnedAbout.add(url.host);
  process.emitWarning(`Imprint's API key is sent over plain http to ${url.host}: anyone on the network between can read it. Use https (docs/deploy.md puts nginx with TLS in front), or a loopback address.`, {
    type: 'ImprintWarning',
    code: 'IMPRINT_PLAIN_HTTP_KEY',
  });
}

/** The code decides; only an answer without one (a proxy's 429) is judged by its status. */
const isBusyAnswer = (status: number, code: string | undefined) => (code === undefined ? status === 429 : code === 'BUSY');

/**
 * What a client is made from, checked before any request: the URL (a usage error saying what to
 * write), the key's text (a usage error that does not repeat it), and a warning when the key would
 * go over plain http to another machine. createClient calls it; so does createImprint, so a
 * library user hears of it where they made the instance.
 */
export function checkClientOptions(options: Pick<ClientOptions, 'baseUrl' | 'apiKey'>): URL {
  const checked = parseApiUrl(options.baseUrl);
  if (options.apiKey !== undefined) checkKeyText(options.apiKey);
  if (options.apiKey && isPlainHttpToAnotherMachine(checked)) warnPlainHttpKey(checked);
  return checked;
}

export function createClient(options: ClientOptions) {
  checkClientOptions(options);
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  /** A URL as messages show it: without a user:password the person may have typed into the base. */
  const shown = (url: string) => withoutCredentials(url);
  let ownAgent: Dispatcher | undefined;
  // undici is loaded on the first call: the CLI imports this module in every mode, but only
  // remote mode sends requests. HTTP/1.1, as with undici 7: undici 8 speaks HTTP/2 to a TLS
  // server that offers it, which the client's error handling and the deploy guide's proxy
  // (connections per client, keep-alive) were not written for.
  const undici = async () => {
    const loaded = await import('undici');
    const dispatcher = options.dispatcher ?? (ownAgent ??= new loaded.Agent({ allowH2: false }));
    return { request: loaded.request, dispatcher };
  };

  // Requests sent, answered or not: a batch by job reports how many it took (bench/, --summary).
  let requestsSent = 0;

  /** The answer's headers and a body still to be read; a non-2xx answer is read and thrown. `withKey: false`: a capability URL (Part C files) gets no API key. */
  async function send(method: Dispatcher.HttpMethod, path: string, body?: unknown, withKey = true, signal?: AbortSignal): Promise<Dispatcher.ResponseData> {
    const url = new URL(path.replace(/^\//, ''), base).href;
    const headers: Record<string, string> = { accept: 'application/pdf, application/json', 'user-agent': imprintUserAgent() };
    if (options.apiKey && withKey) headers.authorization = `Bearer ${options.apiKey}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Dispatcher.ResponseData;
    const { request, dispatcher } = await undici();
    requestsSent++;
    try {
      response = await request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), dispatcher, signal });
    } catch (error) {
      const reason = unreachableReason(error);
      if (reason) throw new ApiUnreachableError(shown(url), reason, { cause: error });
      throw error;
    }
    if (response.statusCode < 200 || response.statusCode > 299) {
      const raw = Buffer.from(await response.body.arrayBuffer());
      const { message, code } = errorAnswer(raw, response.headers['content-type'] as string | undefined);
      const retryAfterSeconds = parseRetryAfter(response.headers['retry-after']);
      if (isBusyAnswer(response.statusCode, code)) throw new ApiBusyError(message, method, shown(url), retryAfterSeconds, code);
      throw new ApiError(response.statusCode, message, method, shown(url), { retryAfterSeconds, code });
    }
    return response;
  }

  async function call(method: Dispatcher.HttpMethod, path: string, body?: unknown, withKey = true): Promise<{ status: number; contentType?: string; raw: Buffer }> {
    const response = await send(method, path, body, withKey);
    const raw = Buffer.from(await response.body.arrayBuffer());
    return { status: response.statusCode, contentType: response.headers['content-type'] as string | undefined, raw };
  }

  const json = async <T>(method: Dispatcher.HttpMethod, path: string, body?: unknown): Promise<T> => {
    const { raw } = await call(method, path, body);
    return JSON.parse(raw.toString('utf8')) as T;
  };

  async function render(path: string, body: DocumentRequest | GenerateRequest): Promise<DocumentResult> {
    const { raw, contentType } = await call('POST', path, body);
    if (contentType?.startsWith('application/pdf')) return { format: 'pdf', pdf: raw };
    const parsed = JSON.parse(raw.toString('utf8')) as { data?: string; url?: string };
    if (typeof parsed.data === 'string') return { format: 'base64', body: { data: parsed.data } };
    if (typeof parsed.url === 'string') return { format: 'json', body: { url: parsed.url } };
    throw new ApiError(200, `an unexpected answer: ${redactSecrets(raw.toString('utf8').slice(0, 200))}`, 'POST', shown(new URL(path.replace(/^\//, ''), base).href));
  }

  const segment = encodeURIComponent;

  return {
    baseUrl: options.baseUrl,
    /** A1. */
    renderDocument: (documentId: string, body: DocumentRequest) => render(`api/documents/${segment(documentId)}`, body),
    /** An extension (docs/einvoice.md): the template's e-invoice as XML. */
    einvoiceDocument: async (documentId: string, body: EInvoiceRequest): Promise<string> => (await call('POST', `api/documents/${segment(documentId)}/einvoice`, body)).raw.toString('utf8'),
    /** A2. */
    generate: (body: GenerateRequest) => render('api/generate', body),
    publish: (body: PublishRequest) => json<Published>('POST', 'api/templates', body),
    listTemplates: async () => (await json<{ templates: TemplateSummary[] }>('GET', 'api/templates')).templates,
    getTemplate: (id: string) => json<TemplateDetails>('GET', `api/templates/${segment(id)}`),
    /** api.md Part E: publishes `version` again as the latest. */
    rollback: (id: string, version: number) => json<RolledBack>('POST', `api/templates/${segment(id)}/rollback`, { version }),
    deleteTemplate: async (id: string) => void (await call('DELETE', `api/templates/${segment(id)}`)),
    me: () => json<Me>('GET', 'api/me'),
    /** `imprint login --web` (api.md Part F): a one-time code to approve in the dashboard, and the poll that receives the key. */
    startWebLogin: (machine: string) => json<WebLoginCode>('POST', 'dashboard/login-codes', { machine }),
    pollWebLogin: (pollToken: string) => json<WebLoginPoll>('POST', 'dashboard/login-codes/poll', { pollToken }),
    /** Part D: a job of many rows; answers as soon as it is queued (202). */
    submitJob: (body: JobRequest) => json<SubmittedJob>('POST', 'api/jobs', body),
    /** Part D: the team's jobs, newest first; `before` is a page's `next`. */
    listJobs: async (page: { limit?: number; before?: string } = {}): Promise<JobPage> => {
      const query = new URLSearchParams();
      if (page.limit !== undefined) query.set('limit', String(page.limit));
      if (page.before !== undefined) query.set('before', page.before);
      const listed = await json<JobPage | JobPage['jobs']>('GET', `api/jobs${query.size ? `?${query}` : ''}`);
      return Array.isArray(listed) ? { jobs: listed } : listed;
    },
    getJob: (id: string) => json<JobDetails>('GET', `api/jobs/${segment(id)}`),
    /** Part D: the rows not yet started are cancelled (and not counted); answers the job as it stands. */
    cancelJob: async (id: string): Promise<JobDetails | undefined> => {
      const { raw } = await call('DELETE', `api/jobs/${segment(id)}`);
      return raw.length ? (JSON.parse(raw.toString('utf8')) as JobDetails) : undefined;
    },
    /** A row's PDF from its download URL (a capability URL: sent without the API key). */
    downloadFile: async (url: string): Promise<Buffer> => (await call('GET', url, undefined, false)).raw,
    /** Part D: the job's zip, streamed into `into` as it arrives. */
    downloadArchive: async (id: string, into: Writable): Promise<void> => {
      const response = await send('GET', `api/jobs/${segment(id)}/archive`);
      await pipeline(response.body, into);
    },
    /**
     * An extension of Part D (docs/jobs.md, Streaming): the job's finished rows as they finish,
     * PDFs included, on one answer that ends with the job. Ends early (without a last `job`
     * line showing the job over) when the service stops or `signal` is aborted.
     */
    streamJob: async function* (id: string, signal?: AbortSignal): AsyncGenerator<JobStreamEvent> {
      const response = await send('GET', `api/jobs/${segment(id)}/stream`, undefined, true, signal);
      let pending: Buffer[] = [];
      const parse = (line: Buffer): JobStreamEvent => {
        const parsed = JSON.parse(line.toString('utf8')) as { job?: JobDetails; row?: JobRowOutcome; pdf?: string };
        if (parsed.job) return { job: parsed.job };
        if (!parsed.row) throw new ApiError(200, `an unexpected line in the job's stream: ${line.toString('utf8').slice(0, 200)}`, 'GET', new URL(`api/jobs/${segment(id)}/stream`, base).href);
        return { row: parsed.row, ...(typeof parsed.pdf === 'string' ? { pdf: Buffer.from(parsed.pdf, 'base64') } : {}) };
      };
      try {
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          let start = 0;
          for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
            const line = pending.length ? Buffer.concat([...pending, chunk.subarray(start, end)]) : chunk.subarray(start, end);
            pending = [];
            start = end + 1;
            if (line.length > 0) yield parse(line);
          }
          if (start < chunk.length) pending.push(chunk.subarray(start));
        }
      } catch (error) {
        const reason = unreachableReason(error);
        if (reason) throw new ApiUnreachableError(shown(new URL(`api/jobs/${segment(id)}/stream`, base).href), reason, { cause: error });
        throw error;
      } finally {
        // Stopped early by the caller: the rest of the answer is not wanted.
        response.body.destroy();
      }
    },
    /** HTTP requests this client has sent so far. */
    requestCount: () => requestsSent,
    health: () => json<Health>('GET', 'healthz'),
    /** Closes the client's own connections (not a dispatcher handed in), so none keeps the process alive. */
    close: async () => {
      await ownAgent?.close();
    },
  };
}

export type ApiClient = ReturnType<typeof createClient>;
