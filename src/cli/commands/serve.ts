/** `imprint serve`: the HTTP API (api.md) on this machine's data folder, until SIGTERM/SIGINT. */
import os from 'node:os';
import { Command, InvalidArgumentError, Option } from 'commander';
import { isImprintError } from '../../core/errors.js';
import type { NetPolicy } from '../../core/net/address-policy.js';
import { formatBytes } from '../../core/limits/format-bytes.js';
import { DEFAULT_RENDER_LIMITS } from '../../core/limits/render-limits.js';
import { parseByteSize } from '../../server/byte-size.js';
import { DEFAULT_CLIENT_TIMEOUTS } from '../../server/client-timeouts.js';
import { DEFAULT_LIMITS } from '../../server/deps.js';
import { parseDuration } from '../../server/duration.js';
import { waitForShutdownSignal } from '../../server/signals.js';
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_RENDER_TIMEOUT_MS, QUEUE_PER_SLOT, startServer } from '../../server/start.js';
import type { CliContext } from '../context.js';
import { normalizeApiUrl } from '../config/mode.js';
import { metricsConfig, metricsOptions, serveLogger, type MetricsFlags } from '../metrics-options.js';
import { collectAllowHosts, parsePositiveInteger, parseQueueLength, serveNetPolicy } from '../serve-settings.js';
import { imprintVersion } from '../../core/version.js';
import { note } from '../ui/status.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new InvalidArgumentError('use a port number from 0 to 65535 (0 picks a free one).');
  return port;
}

const asArgument = <T>(parse: (text: string) => T) => (text: string): T => {
  try {
    return parse(text);
  } catch (error) {
    if (isImprintError(error)) throw new InvalidArgumentError(error.message);
    throw error;
  }
};

interface ServeFlags extends MetricsFlags {
  port: number;
  host: string;
  urlTtl: number;
  renderTimeout: number;
  publicUrl?: string;
  logLevel: string;
  allowHost: string[];
  allowPrivate?: boolean;
  concurrency: number;
  /** Absent: QUEUE_PER_SLOT per render slot. */
  queueLength?: number;
  maxPropsDepth: number;
  maxPages: number;
  maxPdfSize: number;
  maxBodySize: number;
  maxUploadSize: number;
  headersTimeout: number;
  requestTimeout: number;
  idleTimeout: number;
  keepAliveTimeout: number;
}

const seconds = (ms: number) => `${ms / 1000}s`;
/** Every limit's environment variable: IMPRINT_ and the flag's name (--max-pages: IMPRINT_MAX_PAGES). */
const envName = (flag: string) => `IMPRINT_${flag.replace(/^--/, '').replace(/-/g, '_').toUpperCase()}`;
const durationOption = (flag: string, description: string, defaultMs: number, defaultDescription = seconds(defaultMs)) =>
  new Option(`${flag} <duration>`, description)
    .env(envName(flag))
    .default(defaultMs, defaultDescription)
    .argParser(asArgument((t) => parseDuration(t, flag)));
const sizeOption = (flag: string, description: string, defaultBytes: number) =>
  new Option(`${flag} <size>`, description)
    .env(envName(flag))
    .default(defaultBytes, formatBytes(defaultBytes).replace(' ', ''))
    .argParser(asArgument((t) => parseByteSize(t, flag)));
const countOption = (flag: string, description: string, defaultCount: number, defaultDescription?: string) =>
  new Option(`${flag} <n>`, description)
    .env(envName(flag))
    .default(defaultCount, defaultDescription)
    .argParser(asArgument((t) => parsePositiveInteger(t, flag)));

/** The operator's policy in one line, so a wrong --allow-host shows at start. */
function describeReach(policy: NetPolicy): string {
  const opened = [...policy.allowList.names, ...policy.allowList.suffixes.map((suffix) => `*${suffix}`), ...policy.allowList.ranges];
  const parts = ['public addresses', ...(policy.allowPrivate ? ['loopback and private networks'] : []), ...opened];
  return parts.length === 1 ? 'public addresses only' : parts.join(', ');
}

export function registerServe(program: Command, context: () => CliContext) {
  const command = program
    .command('serve')
    .description('run the Imprint HTTP API on the data folder (stops cleanly on SIGTERM or Ctrl-C)')
    .addOption(new Option('--port <port>', 'TCP port; 0 picks a free one').env('IMPRINT_PORT').default(DEFAULT_PORT).argParser(parsePort))
    .addOption(new Option('--host <host>', 'address to listen on; 0.0.0.0 for every interface').env('IMPRINT_HOST').default(DEFAULT_HOST))
    .addOption(new Option('--public-url <url>', 'the base of download URLs, as clients reach this service (default: the listening address)').env('IMPRINT_PUBLIC_URL').argParser(asArgument(normalizeApiUrl)))
    .addOption(durationOption('--url-ttl', 'how long a `json` result\'s download URL works', 24 * 3_600_000, '24h'))
    .addOption(durationOption('--render-timeout', 'longest a render may take, its wait for a render slot included, before answering 504', DEFAULT_RENDER_TIMEOUT_MS))
    .addOption(new Option('--log-level <level>', 'log verbosity (JSON lines on stdout; readable lines on a terminal)').choices(LOG_LEVELS).env('IMPRINT_LOG_LEVEL').default('info'))
    // The outbound network: public addresses only unless the operator opens more (docs/security.md).
    .addOption(
      new Option('--allow-host <host|*.domain|CIDR>', 'let renders reach this host, wildcard domain, address or range (repeatable; commas separate several)')
        .env('IMPRINT_ALLOW_HOSTS')
        .default([], 'none')
        .argParser(asArgument(collectAllowHosts)),
    )
    .option('--allow-private', 'let renders reach loopback and private networks (a trusted internal deployment; env IMPRINT_ALLOW_PRIVATE=1). Cloud metadata stays closed')
    // The render pool: how many documents print at once, and how many may wait for a slot.
    .addOption(countOption('--concurrency', 'documents rendered at once (one Chromium page each)', os.availableParallelism(), `the number of cores, ${os.availableParallelism()} here`))
    .addOption(
      // No default value: it follows --concurrency (commander shows no default for undefined, so the description says it).
      new Option('--queue-length <n>', `renders that may wait for a free slot; one more answers 429 with Retry-After; 0: none wait (default: ${QUEUE_PER_SLOT} per render slot)`)
        .env(envName('--queue-length'))
        .argParser(asArgument((t) => parseQueueLength(t, '--queue-length'))),
    )
    .addOption(countOption('--max-props-depth', 'deepest nesting of props accepted (400 beyond)', DEFAULT_RENDER_LIMITS.maxPropsDepth))
    .addOption(countOption('--max-pages', 'most pages in one document (422 beyond)', DEFAULT_RENDER_LIMITS.maxPages))
    .addOption(sizeOption('--max-pdf-size', 'largest PDF returned or stored (422 beyond)', DEFAULT_RENDER_LIMITS.maxPdfBytes))
    .addOption(sizeOption('--max-body-size', 'largest render request body: props, HTML (413 beyond)', DEFAULT_LIMITS.requestBytes))
    .addOption(sizeOption('--max-upload-size', 'largest published template bundle (413 beyond)', DEFAULT_LIMITS.artifactBytes))
    .addOption(durationOption('--headers-timeout', 'a client must send its request headers within this', DEFAULT_CLIENT_TIMEOUTS.headersMs))
    .addOption(durationOption('--request-timeout', 'a client must send its whole request, body included, within this (408 beyond)', DEFAULT_CLIENT_TIMEOUTS.requestMs))
    .addOption(durationOption('--idle-timeout', 'a connection where nothing moves for this long is closed (not while its document renders)', DEFAULT_CLIENT_TIMEOUTS.idleMs))
    .addOption(durationOption('--keep-alive-timeout', 'an idle connection between requests is closed after this', DEFAULT_CLIENT_TIMEOUTS.keepAliveMs));
  for (const option of metricsOptions()) command.addOption(option);
  command
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ imprint team create acme && imprint key create --team acme',
        '  $ imprint serve --port 8080 --data-dir /var/lib/imprint --public-url https://pdf.example.org',
        '  $ imprint serve --allow-host assets.example.org --allow-host 10.20.0.0/16',
        '  $ imprint serve --concurrency 4 --queue-length 20 --render-timeout 60s --max-pages 200',
        '  $ imprint serve --metrics-port 9464 --metrics-host 127.0.0.1   # Prometheus metrics, see docs/operate.md',
        '',
        'Every limit can also be set by its environment variable: IMPRINT_ and the flag\'s name,',
        'e.g. IMPRINT_CONCURRENCY=4, IMPRINT_QUEUE_LENGTH=20, IMPRINT_MAX_PDF_SIZE=20MiB. A flag wins over its variable.',
      ].join('\n'),
    )
    .action(async (flags: ServeFlags) => {
      const ctx = context();
      const netPolicy = serveNetPolicy({ allowHost: flags.allowHost, allowPrivate: flags.allowPrivate === true || ctx.envSwitch('IMPRINT_ALLOW_PRIVATE') });
      const server = await startServer({
        dataDir: ctx.dataDir,
        port: flags.port,
        host: flags.host,
        publicUrl: flags.publicUrl,
        urlTtlMs: flags.urlTtl,
        renderTimeoutMs: flags.renderTimeout,
        pool: { concurrency: flags.concurrency, ...(flags.queueLength === undefined ? {} : { maxQueue: flags.queueLength }) },
        version: imprintVersion(),
        browser: ctx.browserSettings,
        logger: serveLogger(flags.logLevel),
        metrics: metricsConfig(flags, (name) => ctx.envSwitch(name)),
        netPolicy,
        renderLimits: { maxPropsDepth: flags.maxPropsDepth, maxPages: flags.maxPages, maxPdfBytes: flags.maxPdfSize },
        limits: { requestBytes: flags.maxBodySize, artifactBytes: flags.maxUploadSize },
        timeouts: { headersMs: flags.headersTimeout, requestMs: flags.requestTimeout, idleMs: flags.idleTimeout, keepAliveMs: flags.keepAliveTimeout },
      });
      // Listened for before saying so: whoever reads the line may send SIGTERM at once, and must get a clean stop.
      const shutdown = waitForShutdownSignal();
      note(`Imprint API listening on ${server.url} (data folder ${ctx.dataDir}; download URLs under ${server.publicUrl})`);
      if (server.metricsUrl) note(`Metrics for Prometheus at ${server.metricsUrl}`);
      note(`Renders may reach ${describeReach(netPolicy)}.`);
      note(
        `Renders: ${server.pool.concurrency} at once, ${server.pool.maxQueue} more may wait (429 beyond), each within ${seconds(flags.renderTimeout)} (504 beyond).`,
      );
      const signal = await shutdown;
      note(`${signal}: finishing the requests in progress, then stopping.`);
      await server.close();
      note('Stopped.');
    });
}
