/** `imprint serve`: the HTTP API (api.md) on this machine's data folder, until SIGTERM/SIGINT. */
import type { Command } from 'commander';
import type { NetPolicy } from '../../core/net/address-policy.js';
import type { CliContext } from '../context.js';
import { addServeOptions, resolveServeSettings, serveLogger, type ServeFlags } from '../serve-settings.js';
import { imprintVersion } from '../../core/version.js';
import { guideFile } from '../../core/guides.js';
import { note } from '../ui/status.js';
import { envText } from '../../backend/environment.js';
import { SERVER_SECRET_VARIABLE, serverSecret } from '../../core/pdf/sign/sealed-key.js';

const seconds = (ms: number) => `${ms / 1000}s`;

/** The operator's policy in one line, so a wrong --allow-host shows at start. */
function describeReach(policy: NetPolicy): string {
  const opened = [...policy.allowList.names, ...policy.allowList.suffixes.map((suffix) => `*${suffix}`), ...policy.allowList.ranges];
  const parts = [...(policy.allowPublic ? ['public addresses'] : []), ...(policy.allowPrivate ? ['loopback and private networks'] : []), ...opened];
  if (!policy.allowPublic) return parts.length === 0 ? 'no address at all (--no-public and nothing allowed)' : `only ${parts.join(', ')} (--no-public)`;
  return parts.length === 1 ? 'public addresses only' : parts.join(', ');
}

export function registerServe(program: Command, context: () => CliContext) {
  const command = program
    .command('serve')
    .description('run the Imprint HTTP API on the data folder (stops cleanly on SIGTERM or Ctrl-C)');
  addServeOptions(command)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ imprint team create acme && imprint key create --team acme',
        '  $ imprint serve --port 8080 --data-dir /var/lib/imprint --public-url https://pdf.example.org',
        '  $ imprint serve --allow-host assets.example.org --allow-host 10.20.0.0/16',
        '  $ imprint serve --no-public --allow-host assets.internal   # renders reach that host and nothing else',
        '  $ imprint serve --concurrency 4 --queue-length 20 --render-timeout 60s --max-pages 200',
        `  $ imprint serve --database postgres://imprint:secret@db.internal/imprint   # records in PostgreSQL, see ${guideFile('deploy')}`,
        '  $ AWS_ENDPOINT_URL_S3=http://minio.internal:9000 imprint serve --database postgres://... --storage s3://imprint/objects   # artifacts and PDFs in S3',
        `  $ imprint serve --metrics-port 9464 --metrics-host 127.0.0.1   # Prometheus metrics, see ${guideFile('operate')}`,
        `  $ imprint serve --trust-proxy --public-url https://pdf.example.org   # behind nginx: the dashboard's cookie Secure over https (${guideFile('dashboard')})`,
        '',
        'Every limit can also be set by its environment variable: IMPRINT_ and the flag\'s name,',
        'e.g. IMPRINT_CONCURRENCY=4, IMPRINT_QUEUE_LENGTH=20, IMPRINT_MAX_PDF_SIZE=20MiB. A flag wins over its variable.',
      ].join('\n'),
    )
    .action(async (flags: ServeFlags) => {
      const ctx = context();
      const { logLevel, ...settings } = resolveServeSettings(flags, ctx.env);
      // The server (Fastify, metrics) loads only when it is served: other commands start without it.
      const [{ startServer }, { waitForShutdownSignal }, { describeDatabase }, { describeBucket }] = await Promise.all([
        import('../../server/start.js'),
        import('../../server/signals.js'),
        import('../../core/store/postgres/connect.js'),
        import('../../core/store/objects/storage-url.js'),
      ]);
      const server = await startServer({
        ...settings,
        dataDir: ctx.dataDir,
        version: imprintVersion(),
        browser: ctx.browserSettings,
        logger: serveLogger(logLevel),
        // Checked now (length), so a short one fails at start, not at the first signed render.
        serverSecret: envText(ctx.env, SERVER_SECRET_VARIABLE) === undefined ? undefined : serverSecret(ctx.env, 'Signing with teams\' keys'),
      });
      // Listened for before saying so: whoever reads the line may send SIGTERM at once, and must get a clean stop.
      const shutdown = waitForShutdownSignal();
      const database = server.config.databaseUrl ? `PostgreSQL ${describeDatabase(server.config.databaseUrl)}, ` : '';
      const storage = server.config.storage ? `objects in ${describeBucket(server.config.storage)}, ` : '';
      note(`Imprint API listening on ${server.url} (${database}${storage}data folder ${ctx.dataDir}; download URLs under ${server.publicUrl})`);
      if (server.config.dashboard) note(`Team dashboard at ${server.publicUrl}/ (sign in with an API key; --no-dashboard turns it off).`);
      if (server.metricsUrl) note(`Metrics for Prometheus at ${server.metricsUrl}`);
      note(`Renders may reach ${describeReach(server.config.netPolicy)}.`);
      note(
        `Renders: ${server.config.pool.concurrency} at once, ${server.config.pool.maxQueue} more may wait (429 beyond), each within ${seconds(server.config.renderTimeoutMs)} (504 beyond).`,
      );
      const signal = await shutdown;
      note(`${signal}: finishing the requests in progress, then stopping.`);
      await server.close();
      note('Stopped.');
    });
}
