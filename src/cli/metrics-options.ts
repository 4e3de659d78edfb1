/**
 * `imprint serve`'s metrics and log settings: where Prometheus scrapes (--metrics-port, or the
 * API's port behind --metrics-on-api-port), whether team ids may appear in the metrics, and
 * how the log is written. Each has an environment variable: IMPRINT_ and the flag's name.
 */
import { InvalidArgumentError, Option } from 'commander';
import { serveLoggerOptions } from '../server/logger.js';
import type { MetricsConfig } from '../server/metrics/service-metrics.js';

export interface MetricsFlags {
  metricsPort?: number;
  metricsHost?: string;
  metricsOnApiPort?: boolean;
  metricsTeamLabels?: boolean;
}

function parseMetricsPort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new InvalidArgumentError('use a port number from 0 to 65535 (0 picks a free one).');
  return port;
}

export function metricsOptions(): Option[] {
  return [
    new Option('--metrics-port <port>', 'serve Prometheus metrics at GET /metrics on this port, apart from the API (0 picks a free one; docs/operate.md)')
      .env('IMPRINT_METRICS_PORT')
      .argParser(parseMetricsPort),
    new Option('--metrics-host <host>', 'address of the metrics port (default: the --host of the API)').env('IMPRINT_METRICS_HOST'),
    new Option('--metrics-on-api-port', 'serve GET /metrics on the API port too, without an API key (env IMPRINT_METRICS_ON_API_PORT=1)'),
    new Option('--metrics-team-labels', 'label generation counts with team ids (off: whoever scrapes learns nothing of teams; env IMPRINT_METRICS_TEAM_LABELS=1)'),
  ];
}

/** The switches' variables are read strictly (envSwitch): IMPRINT_METRICS_ON_API_PORT=0 stays off. */
export function metricsConfig(flags: MetricsFlags, envSwitch: (name: string) => boolean): MetricsConfig {
  return {
    port: flags.metricsPort,
    host: flags.metricsHost,
    onApiPort: flags.metricsOnApiPort === true || envSwitch('IMPRINT_METRICS_ON_API_PORT'),
    teamLabels: flags.metricsTeamLabels === true || envSwitch('IMPRINT_METRICS_TEAM_LABELS'),
  };
}

/** JSON lines unless stdout is a terminal. */
export const serveLogger = (level: string) => serveLoggerOptions({ level, pretty: process.stdout.isTTY === true });
