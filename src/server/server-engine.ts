/**
 * The engine as the service runs it: every generation counts against the team's limit, and a
 * `json` result's PDF is kept in the data folder behind a capability URL under the service's
 * own base address (api.md Part B), so the link outlives a restart.
 */
import { createEngine, type Engine, type EngineDeps } from '../core/engine.js';
import type { RenderLimits } from '../core/limits/render-limits.js';
import type { PartFetcher } from '../core/pdf/merge/fetch-part.js';
import type { BrowserPool } from '../core/render/pool.js';
import type { Store } from '../core/store/index.js';
import type { ServiceUrls } from './urls.js';

export interface ServerEngineOptions {
  store: Store;
  browsers: BrowserPool;
  renderTimeoutMs: number;
  /** Props depth, pages and bytes per document. */
  renderLimits: RenderLimits;
  urlTtlMs: number;
  /** Where an issued PDF downloads (its base read when the URL is issued). */
  urls: ServiceUrls;
  /** Fetches `prepend`/`append` parts given by URL, under the policy A2's `url` is judged by; absent, such parts are refused. */
  fetchPart?: PartFetcher;
  /** A request's `sign`: the team's sealed key and the policed way to a TSA (start.ts). */
  signing?: EngineDeps['signing'];
  /** When a print goes to a file (core/spool/spool-policy.ts); none keeps every print in memory. */
  spool?: EngineDeps['spool'];
}

export function createServerEngine(options: ServerEngineOptions): Engine {
  return createEngine({
    store: options.store,
    browsers: options.browsers,
    renderTimeoutMs: options.renderTimeoutMs,
    enforceLimits: true,
    renderLimits: options.renderLimits,
    fetchPart: options.fetchPart,
    signing: options.signing,
    spool: options.spool,
    publishPdf: async (teamId, pdf) => options.urls.download((await options.store.issueFile(teamId, pdf, options.urlTtlMs)).token),
  });
}
