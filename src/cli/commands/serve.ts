/** `imprint serve`: the HTTP API (api.md) on this machine's data folder, until SIGTERM/SIGINT. */
import { Command, InvalidArgumentError, Option } from 'commander';
import { isImprintError } from '../../core/errors.js';
import { parseDuration } from '../../server/duration.js';
import { waitForShutdownSignal } from '../../server/signals.js';
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_RENDER_TIMEOUT_MS, startServer } from '../../server/start.js';
import type { CliContext } from '../context.js';
import { normalizeApiUrl } from '../config/mode.js';
import { VERSION } from '../program.js';
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

interface ServeFlags {
  port: number;
  host: string;
  urlTtl: number;
  renderTimeout: number;
  publicUrl?: string;
  logLevel: string;
}

export function registerServe(program: Command, context: () => CliContext) {
  program
    .command('serve')
    .description('run the Imprint HTTP API on the data folder (stops cleanly on SIGTERM or Ctrl-C)')
    .addOption(new Option('--port <port>', 'TCP port; 0 picks a free one').env('IMPRINT_PORT').default(DEFAULT_PORT).argParser(parsePort))
    .addOption(new Option('--host <host>', 'address to listen on; 0.0.0.0 for every interface').env('IMPRINT_HOST').default(DEFAULT_HOST))
    .addOption(new Option('--public-url <url>', 'the base of download URLs, as clients reach this service (default: the listening address)').env('IMPRINT_PUBLIC_URL').argParser(asArgument(normalizeApiUrl)))
    .addOption(new Option('--url-ttl <duration>', 'how long a `json` result\'s download URL works').default(24 * 3_600_000, '24h').argParser(asArgument((t) => parseDuration(t, '--url-ttl'))))
    .addOption(new Option('--render-timeout <duration>', 'longest a render may take before answering 504').default(DEFAULT_RENDER_TIMEOUT_MS, '30s').argParser(asArgument((t) => parseDuration(t, '--render-timeout'))))
    .addOption(new Option('--log-level <level>', 'log verbosity (JSON lines on stdout)').choices(LOG_LEVELS).env('IMPRINT_LOG_LEVEL').default('info'))
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ imprint team create acme && imprint key create --team acme',
        '  $ imprint serve --port 8080 --data-dir /var/lib/imprint --public-url https://pdf.example.org',
      ].join('\n'),
    )
    .action(async (flags: ServeFlags) => {
      const ctx = context();
      const server = await startServer({
        dataDir: ctx.dataDir,
        port: flags.port,
        host: flags.host,
        publicUrl: flags.publicUrl,
        urlTtlMs: flags.urlTtl,
        renderTimeoutMs: flags.renderTimeout,
        version: VERSION,
        browser: ctx.browserSettings,
        logger: { level: flags.logLevel },
      });
      note(`Imprint API listening on ${server.url} (data folder ${ctx.dataDir}; download URLs under ${server.publicUrl})`);
      const signal = await waitForShutdownSignal();
      note(`${signal}: finishing the requests in progress, then stopping.`);
      await server.close();
      note('Stopped.');
    });
}
