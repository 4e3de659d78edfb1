/**
 * The embedded engine's egress proxies (issue 5), one pair per CLI process. Templates, published
 * or local, render with no network at all: the browser's own proxy refuses every destination
 * (their HTTP requests are refused in the page already; this closes WebSockets and WebRTC's
 * TURN too). Raw HTML and web pages (generate) render in contexts with a proxy of their own
 * that reaches public addresses, and the user's own machine and network once they pass
 * --allow-local; cloud metadata never.
 *
 * Shared by the entry point, which starts Chromium behind the template proxy before the CLI
 * has loaded (launch-ahead.ts), and the embedded backend, whose launches must match it.
 */
import { createNetPolicy } from '../core/net/address-policy.js';
import { createDestinationCheck } from '../core/net/destination-check.js';
import type { EgressDenial } from '../core/net/egress-proxy.js';
import { lazyEgressProxy } from '../core/net/lazy-egress-proxy.js';

let allowLocal = false;
let onPageDenied: (denial: EgressDenial) => void = () => {};

const publicOnly = createDestinationCheck(createNetPolicy());
const withLocal = createDestinationCheck(createNetPolicy({ allowPrivate: true }));

const templateEgress = lazyEgressProxy({ check: createDestinationCheck(createNetPolicy({ allowPublic: false })) });
const pageEgress = lazyEgressProxy({
  check: (host) => (allowLocal ? withLocal : publicOnly)(host),
  onDenied: (denial) => onPageDenied(denial),
});

export const cliEgress = {
  /** The port of the proxy every request of the CLI's browsers goes through (templates'). */
  templatePort: templateEgress.port,
  /** The port of the proxy of generate's contexts. */
  pagePort: pageEgress.port,
  /** --allow-local: generate's pages may reach loopback and private networks. */
  allowLocal(on: boolean): void {
    allowLocal = on;
  },
  /** Tells the user what a page was refused (an image from their dev server, say). */
  onPageDenied(report: (denial: EgressDenial) => void): void {
    onPageDenied = report;
  },
  async close(): Promise<void> {
    await Promise.all([templateEgress.close(), pageEgress.close()]);
  },
};
