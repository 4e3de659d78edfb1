/**
 * The egress proxy a service's browsers are launched behind, started with the first browser
 * (a service that never renders opens no port) and closed with the service.
 */
import { startEgressProxy, type EgressProxy, type EgressProxyOptions } from './egress-proxy.js';

export interface LazyEgressProxy {
  /** The proxy's port, starting it on first call. */
  port(): Promise<number>;
  close(): Promise<void>;
}

export function lazyEgressProxy(options: EgressProxyOptions): LazyEgressProxy {
  let started: Promise<EgressProxy> | undefined;
  return {
    async port() {
      started ??= startEgressProxy(options);
      return (await started).port;
    },
    async close() {
      const proxy = started;
      started = undefined;
      if (proxy) await (await proxy).close();
    },
  };
}
