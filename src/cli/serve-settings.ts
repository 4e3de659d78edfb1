/**
 * The settings of `imprint serve`, each one flag with its environment variable: IMPRINT_ and
 * the flag's name (--max-pages: IMPRINT_MAX_PAGES). One table gives commander the flags and
 * their help, and resolveServeSettings turns what was given into the service's options: a
 * flag, else its variable, else nothing, so the service applies its own default
 * (server/settings/serve-config.ts, where every default lives). Pure, so the rules are unit-tested
 * apart from commander and the process.
 */
import { spoolPolicyFrom } from '../backend/spool-setting.js';
import os from 'node:os';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { ImprintError, isImprintError } from '../core/errors.js';
import { formatBytes } from '../core/limits/format-bytes.js';
import { RENDER_LIMIT_FLAGS } from '../core/limits/render-limits.js';
import { createNetPolicy, type NetPolicy } from '../core/net/address-policy.js';
import { parseAllowList } from '../core/net/allow-list.js';
import type { S3ObjectsOptions } from '../core/store/objects/open-objects.js';
import { parseStorageUrl, type StorageLocation } from '../core/store/objects/storage-url.js';
import { parseByteSize } from '../backend/byte-size.js';
import { parseDuration } from '../backend/duration.js';
import { serveLoggerOptions } from '../server/http/logger.js';
import { QUEUE_PER_SLOT, SERVE_DEFAULTS, type ServeConfig } from '../server/settings/serve-config.js';
import { parseTrustProxy } from '../server/settings/trust-proxy.js';
import { normalizeApiUrl } from './config/mode.js';
import { DATABASE_DESCRIPTION, DATABASE_ENV, parseDatabaseUrl } from './database-option.js';
import { envSwitch, envText, envValue, type Environment } from '../backend/environment.js';
import { guideFile } from '../core/guides.js';

/**
 * One --allow-host value (or IMPRINT_ALLOW_HOSTS): a host, `*.domain`, an address or a CIDR,
 * or several separated by commas; added to the earlier ones. Checked at once, so a typo stops
 * the service before it starts, naming the entry.
 */
export function collectAllowHosts(value: string, previous: readonly string[] = []): string[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  parseAllowList(entries);
  return [...previous, ...entries];
}

/** A whole number of at least `min`, written in digits only (no sign, fraction or exponent). */
function parseWholeNumber(text: string, what: string, min: number, hint = ''): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min) {
    throw new ImprintError('USAGE', `Invalid ${what} "${text}": use a whole number of at least ${min}${hint}.`);
  }
  return value;
}

/** A limit counted in whole things (levels, pages, render slots). */
export function parsePositiveInteger(text: string, what: string): number {
  return parseWholeNumber(text, what, 1);
}

/**
 * The render queue's length (--queue-length, IMPRINT_QUEUE_LENGTH): renders that may wait for
 * a slot; 0 is allowed and means none wait (every render past the slots answers 429 at once).
 */
export function parseQueueLength(text: string, what: string): number {
  return parseWholeNumber(text, what, 0, ' (0: no render waits, every one past the busy slots answers 429)');
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new InvalidArgumentError('use a port number from 0 to 65535 (0 picks a free one).');
  return port;
}

/** The service's log: JSON lines, readable lines when stdout is a terminal (server/http/logger.ts). */
export const serveLogger = (level: string) => serveLoggerOptions({ level, pretty: process.stdout.isTTY === true });

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** The log level is the CLI's alone: a program that starts the server hands in its own logger. */
const DEFAULT_LOG_LEVEL = 'info';

function parseLogLevel(text: string): string {
  if (!(LOG_LEVELS as readonly string[]).includes(text)) throw new InvalidArgumentError(`Allowed choices are ${LOG_LEVELS.join(', ')}.`);
  return text;
}

/** 24h, 10m, 2m, 60s, 1500ms: a default duration as an operator would write it (docs/deploy.md's table the same). */
const formatDefaultDuration = (ms: number) =>
  ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : ms % 60_000 === 0 && ms >= 120_000 ? `${ms / 60_000}m` : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
const formatSize = (bytes: number) => formatBytes(bytes).replace(' ', '');

interface Setting<T> {
  /** The flag as --help shows it: "--max-pages <n>". */
  flags: string;
  description: string;
  /** The default as --help shows it; the value is the service's own (SERVE_DEFAULTS). */
  shownDefault?: string;
  choices?: readonly string[];
  /** The variable, where it is not IMPRINT_ and the flag's name. */
  env?: string;
  /** For a flag whose value may be left out ("--trust-proxy [proxies]"): the text parsed when it is. */
  preset?: string;
  parse: (text: string, previous?: T) => T;
}

const setting = <T>(flags: string, description: string, parse: (text: string, previous?: T) => T, shownDefault?: string, choices?: readonly string[]): Setting<T> => ({
  flags,
  description,
  parse,
  shownDefault,
  choices,
});
const flagName = (flags: string) => flags.split(' ')[0];
const duration = (flags: string, description: string, defaultMs: number) =>
  setting(flags, description, (text) => parseDuration(text, flagName(flags)), formatDefaultDuration(defaultMs));
const size = (flags: string, description: string, defaultBytes: number) =>
  setting(flags, description, (text) => parseByteSize(text, flagName(flags)), formatSize(defaultBytes));
const count = (flags: string, description: string, shownDefault: string) =>
  setting(flags, description, (text) => parsePositiveInteger(text, flagName(flags)), shownDefault);

const { limits, renderLimits, timeouts } = SERVE_DEFAULTS;
const cores = os.availableParallelism();

/** Every setting that takes a value, in the order --help lists them. */
const SETTINGS = {
  port: setting('--port <port>', 'TCP port; 0 picks a free one', parsePort, String(SERVE_DEFAULTS.port)),
  host: setting('--host <host>', 'address to listen on; 0.0.0.0 for every interface', (text) => text, JSON.stringify(SERVE_DEFAULTS.host)),
  publicUrl: setting('--public-url <url>', 'the base of download URLs, as clients reach this service', normalizeApiUrl, 'the listening address'),
  // Alone (and IMPRINT_TRUST_PROXY=1) it trusts a proxy on this machine (loopback).
  trustProxy: {
    ...setting(
      '--trust-proxy [proxies]',
      "the service is behind a proxy of yours (nginx, a balancer): believe its X-Forwarded-For and X-Forwarded-Proto (client addresses for the sign-in limit, https for the dashboard's Secure cookie). Alone: a proxy on this machine (loopback); else the proxies' addresses and CIDRs (10.0.0.5,10.0.1.0/24): only a connection from one of them is believed",
      parseTrustProxy,
      'off',
    ),
    preset: 'on',
  },
  // Several nodes share one PostgreSQL database (docs/deploy.md); its variable is the usual *_URL.
  database: { ...setting('--database <url>', DATABASE_DESCRIPTION, parseDatabaseUrl), env: DATABASE_ENV },
  reservationLease: duration(
    '--reservation-lease <duration>',
    `with --database: a render reserves its team's count for at most this long, so a node that dies mid-render gives it back after this (longer than --render-timeout; ${guideFile('deploy')})`,
    SERVE_DEFAULTS.reservationLeaseMs,
  ),
  purgeInterval: duration('--purge-interval <duration>', 'how often expired download files are removed (also at start)', SERVE_DEFAULTS.purgeIntervalMs),
  // Objects shared by the nodes (docs/deploy.md); how to reach the bucket is the AWS SDK's usual variables.
  storage: setting(
    '--storage <s3://bucket/prefix>',
    'keep template artifacts and issued PDFs in this S3 bucket, shared by every node (needs --database; endpoint, region and credentials from AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)',
    parseStorageUrl,
    'the data folder',
  ),
  urlTtl: duration('--url-ttl <duration>', 'how long a `json` result\'s download URL works', SERVE_DEFAULTS.urlTtlMs),
  renderTimeout: duration('--render-timeout <duration>', 'longest a render may take, its wait for a render slot included, before answering 504', SERVE_DEFAULTS.renderTimeoutMs),
  logLevel: setting('--log-level <level>', 'log verbosity (JSON lines on stdout; readable lines on a terminal)', parseLogLevel, JSON.stringify(DEFAULT_LOG_LEVEL), LOG_LEVELS),
  // The outbound network: public addresses only unless the operator opens more (docs/security.md).
  // Plural: one variable holds the whole list (commas separate the entries).
  allowHost: {
    ...setting<string[]>('--allow-host <host|*.domain|CIDR>', 'let renders reach this host, wildcard domain, address or range (repeatable; commas separate several)', collectAllowHosts, 'none'),
    env: 'IMPRINT_ALLOW_HOSTS',
  },
  // The render pool: how many documents print at once, and how many may wait for a slot.
  concurrency: count('--concurrency <n>', 'documents rendered at once (one Chromium page each)', `the number of cores, ${cores} here`),
  queueLength: setting(
    '--queue-length <n>',
    'renders that may wait for a free slot; one more answers 429 with Retry-After; 0: none wait',
    (text) => parseQueueLength(text, '--queue-length'),
    `${QUEUE_PER_SLOT} per render slot`,
  ),
  maxPropsDepth: count(`${RENDER_LIMIT_FLAGS.maxPropsDepth} <n>`, 'deepest nesting of props accepted (400 beyond)', String(renderLimits.maxPropsDepth)),
  maxPages: count(`${RENDER_LIMIT_FLAGS.maxPages} <n>`, 'most pages in one document (422 beyond)', String(renderLimits.maxPages)),
  maxPdfSize: size(`${RENDER_LIMIT_FLAGS.maxPdfBytes} <size>`, 'largest PDF returned or stored (422 beyond)', renderLimits.maxPdfBytes),
  maxBodySize: size('--max-body-size <size>', 'largest render request body: props, HTML (413 beyond)', limits.requestBytes),
  maxUploadSize: size('--max-upload-size <size>', 'largest published template bundle (413 beyond)', limits.artifactBytes),
  headersTimeout: duration('--headers-timeout <duration>', 'a client must send its request headers within this', timeouts.headersMs),
  requestTimeout: duration('--request-timeout <duration>', 'a client must send its whole request, body included, within this (408 beyond)', timeouts.requestMs),
  idleTimeout: duration('--idle-timeout <duration>', 'a connection where nothing moves for this long is closed (not while its document renders)', timeouts.idleMs),
  keepAliveTimeout: duration('--keep-alive-timeout <duration>', 'an idle connection between requests is closed after this', timeouts.keepAliveMs),
  // Job webhooks (docs/webhooks.md): a small base shortens the whole retry schedule (tests, staging).
  webhookRetryBase: duration('--webhook-retry-base <duration>', "a failed job webhook's first retry waits this; each later one doubles, up to 360x (11 attempts, 2.4 h at the default)", SERVE_DEFAULTS.webhooks.retryBaseMs),
  webhookTimeout: duration('--webhook-timeout <duration>', 'longest one webhook delivery attempt may take before it counts as failed', SERVE_DEFAULTS.webhooks.timeoutMs),
  // Jobs (docs/jobs.md): a row held by a node that died is taken again after this.
  jobLease: duration('--job-lease <duration>', 'a job row held by a node that stopped (killed, crashed) is taken again after this; longer than --render-timeout', SERVE_DEFAULTS.jobLeaseMs),
  // Prometheus metrics: off the API's port unless the operator says so (docs/operate.md).
  metricsPort: setting('--metrics-port <port>', `serve Prometheus metrics at GET /metrics on this port, apart from the API (0 picks a free one; ${guideFile('operate')})`, parsePort, 'off'),
  metricsHost: setting('--metrics-host <host>', 'address of the metrics port', (text) => text, 'the --host of the API'),
};

/** On/off flags, each with its variable read strictly (=0 stays off), listed after the setting named by `after`. */
const SWITCHES = {

  allowPrivate: {
    flags: '--allow-private',
    env: 'IMPRINT_ALLOW_PRIVATE',
    after: 'allowHost',
    description: 'let renders reach loopback and private networks (a trusted internal deployment; env IMPRINT_ALLOW_PRIVATE=1). Cloud metadata stays closed',
  },
  // A service that must reach nothing it was not told of (an intranet, a sandbox, a test run):
  // the public internet closes too, and a name not on the allow-list is not even looked up.
  noPublic: {
    flags: '--no-public',
    env: 'IMPRINT_NO_PUBLIC',
    after: 'allowHost',
    description: 'renders reach only the --allow-host entries (and private networks with --allow-private): no public address, and an unlisted name is not even looked up (env IMPRINT_NO_PUBLIC=1)',
  },
  metricsOnApiPort: {
    flags: '--metrics-on-api-port',
    env: 'IMPRINT_METRICS_ON_API_PORT',
    after: 'metricsHost',
    description: 'serve GET /metrics on the API port too, without an API key (env IMPRINT_METRICS_ON_API_PORT=1)',
  },
  metricsTeamLabels: {
    flags: '--metrics-team-labels',
    env: 'IMPRINT_METRICS_TEAM_LABELS',
    after: 'metricsHost',
    description: 'label generation counts with team ids (off: whoever scrapes learns nothing of teams; env IMPRINT_METRICS_TEAM_LABELS=1)',
  },
} as const;

type Settings = typeof SETTINGS;

/** What commander parsed: only what was given on the command line (no defaults are filled in). */
export type ServeFlags = { [K in keyof Settings]?: Settings[K] extends Setting<infer T> ? T : never } & { [K in keyof typeof SWITCHES]?: boolean } & {
  /** --no-dashboard given. */
  noDashboard?: boolean;
};

/** A setting's environment variable: IMPRINT_ and the flag's name (--max-pages: IMPRINT_MAX_PAGES) unless it says otherwise. */
export const envName = (item: { flags: string; env?: string }) => item.env ?? `IMPRINT_${flagName(item.flags).replace(/^--/, '').replace(/-/g, '_').toUpperCase()}`;

/** The flag's parser, its message reported by commander as a usage error (exit 2). */
const asArgument =
  <T>(parse: (text: string, previous?: T) => T) =>
  (text: string, previous?: T): T => {
    try {
      return parse(text, previous);
    } catch (error) {
      if (isImprintError(error)) throw new InvalidArgumentError(error.message);
      throw error;
    }
  };

/** `(choices: ..., default: ..., env: ...)`, the way commander itself writes what it knows of a flag. */
function helpOf(item: Setting<unknown>): string {
  const extra = [
    ...(item.choices ? [`choices: ${item.choices.map((choice) => JSON.stringify(choice)).join(', ')}`] : []),
    ...(item.shownDefault === undefined ? [] : [`default: ${item.shownDefault}`]),
    `env: ${envName(item)}`,
  ];
  return `${item.description} (${extra.join(', ')})`;
}

export function addServeOptions(command: Command): Command {
  for (const [key, item] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
    const option = new Option(item.flags, helpOf(item)).argParser(asArgument(item.parse));
    command.addOption(item.preset === undefined ? option : option.preset(item.preset));
    // On/off flags sit beside the setting they belong to; their variables are read strictly
    // (environment.ts), not by a parser of text.
    for (const onOff of Object.values(SWITCHES)) if (onOff.after === key) command.addOption(plainSwitch(onOff.flags, onOff.description));
  }
  command.addOption(plainSwitch('--no-dashboard', 'do not serve the team dashboard at / (env IMPRINT_DASHBOARD=off); the API is the same either way'));
  return command;
}

/**
 * An on/off flag as typed. A --no-* flag stays a plain switch (noDashboard, noPublic), not
 * commander's negation: that would fill in dashboard=true as if typed, and only what was typed
 * is parsed here (the variable's turn comes after).
 */
function plainSwitch(flags: string, description: string): Option {
  const option = new Option(flags, description);
  option.negate = false;
  return option;
}

/** What was given of one setting: its flag, else its variable (read by the flag's parser), else undefined. */
function given<K extends keyof Settings>(flags: ServeFlags, env: Environment, key: K): ServeFlags[K] {
  const item = SETTINGS[key] as unknown as Setting<NonNullable<ServeFlags[K]>>;
  return flags[key] ?? envValue(env, envName(item), item.flags, (text) => item.parse(text));
}

interface NetFlags {
  allowHost: readonly string[];
  allowPrivate: boolean;
  /** --no-public: the public internet closed too. */
  noPublic?: boolean;
}

/** The service's policy: public addresses (unless --no-public), plus what the operator opened. */
export function serveNetPolicy(flags: NetFlags): NetPolicy {
  return createNetPolicy({ allow: flags.allowHost, allowPrivate: flags.allowPrivate, allowPublic: flags.noPublic !== true });
}

/** The S3 SDK's variables for a bucket that is not on AWS (MinIO, Ceph, s3rver): the service-specific one first, as the SDK reads them. */
const ENDPOINT_ENV = ['AWS_ENDPOINT_URL_S3', 'AWS_ENDPOINT_URL'] as const;

/**
 * How the service reaches the --storage bucket. The endpoint is read here rather than left to
 * the SDK because it decides the addressing: a non-AWS server is asked path-style
 * (http://host/bucket/key). Credentials stay with the SDK's chain (variables, profile, role).
 */
export function s3Settings(location: StorageLocation | undefined, env: Environment): S3ObjectsOptions | undefined {
  if (!location) return undefined;
  const name = ENDPOINT_ENV.find((variable) => envText(env, variable) !== undefined);
  const endpoint = name && envText(env, name)!.trim();
  if (name && endpoint) {
    let protocol: string | undefined;
    try {
      protocol = new URL(endpoint).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol !== 'http:' && protocol !== 'https:') {
      throw new ImprintError('USAGE', `Invalid ${name}=${JSON.stringify(endpoint)}: use the S3 server's address, such as http://127.0.0.1:9000.`);
    }
  }
  return { ...location, endpoint: endpoint || undefined, region: envText(env, 'AWS_REGION')?.trim() };
}

type ServeSettings = Omit<ServeConfig, 'dataDir' | 'version' | 'browser'> & { netPolicy: NetPolicy; logLevel: string };

/** A switch: its flag, else its variable (strict: a value that is not on or off is a usage error). */
const switchedOn = (flags: ServeFlags, env: Environment, key: keyof typeof SWITCHES) => flags[key] === true || envSwitch(env, SWITCHES[key].env);

/**
 * The operator's settings, flags before variables; what neither gives is left out, for the
 * service's default. A variable that cannot be read is a usage error naming it.
 */
export function resolveServeSettings(flags: ServeFlags, env: Environment): ServeSettings {
  const get = <K extends keyof Settings>(key: K) => given(flags, env, key);
  const maxQueue = get('queueLength');
  return {
    port: get('port'),
    host: get('host'),
    publicUrl: get('publicUrl'),
    // On unless turned off, by the flag or the variable (strict: IMPRINT_DASHBOARD=maybe is an error).
    dashboard: flags.noDashboard !== true && (envText(env, 'IMPRINT_DASHBOARD') === undefined || envSwitch(env, 'IMPRINT_DASHBOARD')),
    trustProxy: get('trustProxy'),
    databaseUrl: get('database'),
    reservationLeaseMs: get('reservationLease'),
    purgeIntervalMs: get('purgeInterval'),
    storage: s3Settings(get('storage'), env),
    urlTtlMs: get('urlTtl'),
    renderTimeoutMs: get('renderTimeout'),
    spool: spoolPolicyFrom(env),
    logLevel: get('logLevel') ?? DEFAULT_LOG_LEVEL,
    netPolicy: serveNetPolicy({ allowHost: get('allowHost') ?? [], allowPrivate: switchedOn(flags, env, 'allowPrivate'), noPublic: switchedOn(flags, env, 'noPublic') }),
    pool: { concurrency: get('concurrency'), ...(maxQueue === undefined ? {} : { maxQueue }) },
    renderLimits: { maxPropsDepth: get('maxPropsDepth'), maxPages: get('maxPages'), maxPdfBytes: get('maxPdfSize') },
    limits: { requestBytes: get('maxBodySize'), artifactBytes: get('maxUploadSize') },
    timeouts: { headersMs: get('headersTimeout'), requestMs: get('requestTimeout'), idleMs: get('idleTimeout'), keepAliveMs: get('keepAliveTimeout') },
    webhooks: { retryBaseMs: get('webhookRetryBase'), timeoutMs: get('webhookTimeout') },
    jobLeaseMs: get('jobLease'),
    metrics: {
      port: get('metricsPort'),
      host: get('metricsHost'),
      onApiPort: switchedOn(flags, env, 'metricsOnApiPort'),
      teamLabels: switchedOn(flags, env, 'metricsTeamLabels'),
    },
  };
}
