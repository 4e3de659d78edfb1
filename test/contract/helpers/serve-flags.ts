/**
 * A contract test's service settings as the operator writes them: `imprint serve`'s own flags
 * (src/cli/serve-settings.ts), so the installed command parses them exactly as it parses an
 * operator's. Durations go in milliseconds ("1500ms") and sizes in bytes, so nothing is rounded.
 */
import type { RenderLimits } from '../../../src/core/limits/render-limits.js';
import type { NetPolicyOptions } from '../../../src/core/net/address-policy.js';
import type { ClientTimeouts } from '../../../src/server/http/client-timeouts.js';
import type { BodyLimits } from '../../../src/server/deps.js';
import type { MetricsConfig } from '../../../src/server/metrics/service-metrics.js';
import type { WebhookSettings } from '../../../src/server/settings/serve-config.js';

export interface ServeSettings {
  renderTimeoutMs?: number;
  urlTtlMs?: number;
  /** The operator's network settings (--allow-host, --allow-private, --no-public as allowPublic: false); public only by default. */
  net?: Pick<NetPolicyOptions, 'allow' | 'allowPrivate' | 'allowPublic'>;
  renderLimits?: Partial<RenderLimits>;
  limits?: Partial<BodyLimits>;
  timeouts?: Partial<ClientTimeouts>;
  /** The render slots (--concurrency) and the renders that may wait (--queue-length). */
  pool?: { concurrency?: number; maxQueue?: number };
  /** Prometheus metrics: --metrics-port, --metrics-host, --metrics-on-api-port, --metrics-team-labels. */
  metrics?: MetricsConfig;
  /** Job webhooks' retry base and attempt timeout (a small base shortens the retry schedule). */
  webhooks?: Partial<WebhookSettings>;
}

const ms = (value: number) => `${value}ms`;

export function serveFlags(settings: ServeSettings): string[] {
  const flags: string[] = [];
  const add = (flag: string, value: number | string | undefined, format: (v: never) => string = String) => {
    if (value !== undefined) flags.push(flag, format(value as never));
  };
  add('--render-timeout', settings.renderTimeoutMs, ms);
  add('--url-ttl', settings.urlTtlMs, ms);
  for (const host of settings.net?.allow ?? []) flags.push('--allow-host', host);
  if (settings.net?.allowPrivate) flags.push('--allow-private');
  if (settings.net?.allowPublic === false) flags.push('--no-public');
  add('--max-props-depth', settings.renderLimits?.maxPropsDepth);
  add('--max-pages', settings.renderLimits?.maxPages);
  add('--max-pdf-size', settings.renderLimits?.maxPdfBytes);
  add('--max-body-size', settings.limits?.requestBytes);
  add('--max-upload-size', settings.limits?.artifactBytes);
  add('--headers-timeout', settings.timeouts?.headersMs, ms);
  add('--request-timeout', settings.timeouts?.requestMs, ms);
  add('--idle-timeout', settings.timeouts?.idleMs, ms);
  add('--keep-alive-timeout', settings.timeouts?.keepAliveMs, ms);
  add('--concurrency', settings.pool?.concurrency);
  add('--queue-length', settings.pool?.maxQueue);
  add('--metrics-port', settings.metrics?.port);
  add('--metrics-host', settings.metrics?.host);
  if (settings.metrics?.onApiPort) flags.push('--metrics-on-api-port');
  if (settings.metrics?.teamLabels) flags.push('--metrics-team-labels');
  add('--webhook-retry-base', settings.webhooks?.retryBaseMs, ms);
  add('--webhook-timeout', settings.webhooks?.timeoutMs, ms);
  return flags;
}
