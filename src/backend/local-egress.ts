/**
 * The embedded engine's egress proxies, one pair per CLI process or library instance. Templates, published
 * or local, render with no network at all: the browser's own proxy refuses every destination
 * (their HTTP requests are refused in the page already; this closes WebSockets and WebRTC's
 * TURN too). Raw HTML and web pages (generate) render in contexts with a proxy of their own
 * that reaches public addresses, and the user's own machine and network once they pass
 * --allow-local; cloud metadata never.
 *
 * The CLI makes it once per run in its entry point (cli/cli-runtime.ts), which starts Chromium
 * behind the template proxy before the CLI has loaded (cli/launch-ahead.ts); the library once per
 * createImprint(). Either hands it to the embedded backend, whose launches must match it, and
 * sets its pages' policy (--allow-local, `allowLocal`).
 */
import { createNetPolicy } from '../core/net/address-policy.js';
import { createDestinationCheck } from '../core/net/destination-check.js';
import type { EgressDenial } from '../core/net/egress-proxy.js';
import { lazyEgressProxy } from '../core/net/lazy-egress-proxy.js';

export interface LocalEgress {
  /** The port of the proxy every request of the embedded engine's browsers goes through (templates'). */
  templatePort: () => Promise<number>;
  /** The port of the proxy of generate's contexts. */
  pagePort: () => Promise<number>;
  /** --allow-local: generate's pages may reach loopback and private networks. */
  allowLocal(on: boolean): void;
  /** Whether --allow-local is on: a merge part fetched by URL follows the pages' rule. */
  allowsLocal(): boolean;
  /** Tells the user what a page was refused (an image from their dev server, say). */
  onPageDenied(report: (denial: EgressDenial) => void): void;
  close(): Promise<void>;
}

/** The proxies start on first use: a command that renders nothing never opens a port. */
export function createLocalEgress(): LocalEgress {
  let allowLocal = false;
  let onPageDenied: (denial: EgressDenial) => void = () => {};
  const publicOnly = createDestinationCheck(createNetPolicy());
  const withLocal = createDestinationCheck(createNetPolicy({ allowPrivate: true }));
  const templateEgress = lazyEgressProxy({ check: createDestinationCheck(createNetPolicy({ allowPublic: false })) });
  const pageEgress = lazyEgressProxy({
    check: (host) => (allowLocal ? withLocal : publicOnly)(host),
    onDenied: (denial) => onPageDenied(denial),
  });
  return {
    templatePort: templateEgress.port,
    pagePort: pageEgress.port,
    allowLocal(on) {
      allowLocal = on;
    },
    allowsLocal: () => allowLocal,
    onPageDenied(report) {
      onPageDenied = report;
    },
    async close() {
      await Promise.all([templateEgress.close(), pageEgress.close()]);
    },
  };
}
