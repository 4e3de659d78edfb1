/** The embedded backend: the engine on a data folder of this machine, with a local browser. */
import type { SpoolPolicy } from '../core/spool/spool-policy.js';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { encodeArtifact, type Artifact } from '../core/artifact.js';
import { createEngine, type Engine } from '../core/engine.js';
import { createPartFetcher } from '../core/pdf/merge/fetch-part.js';
import { localUrlAccess } from '../core/url-access.js';
import { createBrowserProvider } from '../core/render/browser-provider.js';
import { DEFAULT_RENDER_TIMEOUT_MS } from '../core/render/deadline.js';
import type { BrowserSearch } from '../core/render/find-browser.js';
import type { LaunchOptions } from '../core/render/launch-browser.js';
import type { LaunchedBrowser } from '../core/render/browser-types.js';
import { openStore, type IssuedFile, type Store, type Team } from '../core/store/index.js';
import { ImprintError, notFound } from '../core/errors.js';
import type { RenderOptions } from '../core/render-request.js';
import type { HtmlSource } from '../core/render/render-html.js';
import type { RenderResult } from '../core/result-forms.js';
import type { Backend, LocalBrowser } from './backend.js';
import { withTimeoutAdvice } from './render-timeout.js';

export const LOCAL_TEAM = 'local';
export const EMBEDDED_URL_TTL_MS = 24 * 60 * 60 * 1000;

export interface EmbeddedOptions {
  dataDir: string;
  /** A render's deadline (backend/render-timeout.ts); the engine's default unless given. */
  renderTimeoutMs?: number;
  /** Added to a RENDER_TIMEOUT's message: how this face gives a render longer (the CLI's --timeout). */
  timeoutAdvice?: string;
  browserSearch: BrowserSearch;
  browserEnv: Record<string, string | undefined>;
  runningAsRoot: boolean;
  /** The egress proxies of its browsers: templates' (the browser's own) and generate's pages'. */
  egress?: { templatePort: () => Promise<number>; pagePort: () => Promise<number>; allowsLocal?: () => boolean };
  /** How its browsers are started (the CLI's takes one started ahead); launchBrowser by default. */
  launch?: (options: LaunchOptions) => Promise<LaunchedBrowser>;
  /** Told once when the data folder was an older Imprint's, readable by others, and was made private. */
  onNotice?: (message: string) => void;
  /** When a print goes to a file (core/spool/spool-policy.ts; backend/spool-setting.ts reads it); none keeps every print in memory (the library, which returns Buffers). */
  spool?: SpoolPolicy;
}

export interface EmbeddedBackend extends Backend {
  readonly localBrowser: LocalBrowser;
  engine(): Engine;
  team(): Promise<Team>;
  /** A template bundled from a local file, rendered without publishing. */
  renderArtifact(artifact: Artifact, props: unknown, options: Parameters<Engine['renderUnpublished']>[3]): ReturnType<Engine['renderUnpublished']>;
  /** A local template file's e-invoice XML, without publishing. */
  einvoiceArtifact(artifact: Artifact, props: unknown, request: Parameters<Engine['einvoiceUnpublished']>[3]): ReturnType<Engine['einvoiceUnpublished']>;
  /** `signal`: the caller gave up (the warm renderer's client was interrupted). */
  render(idOrUuid: string, props: unknown, options: RenderOptions, version?: number, signal?: AbortSignal): ReturnType<Backend['render']>;
  generate(source: HtmlSource, options: RenderOptions, signal?: AbortSignal): Promise<RenderResult>;
}

/** An embedded store keeps its objects as files in the data folder, so a `json` result is a file:// URL. */
function localFileUrl(issued: IssuedFile): string {
  if (!issued.path) throw new ImprintError('INTERNAL', 'The embedded store issued a PDF that is not a file on this machine.');
  return pathToFileURL(issued.path).href;
}

/**
 * generate needs no template and, in embedded mode, counts nothing: it runs as the local team
 * without opening the database (only a `json` result, which keeps its PDF there, opens it).
 */
const GENERATE_TEAM: Team = { id: 0, name: LOCAL_TEAM, generationLimit: 0, createdAt: '' };

export function createEmbeddedBackend(options: EmbeddedOptions): EmbeddedBackend {
  // Opened on first use: `imprint generate` never needs the database, only the browser.
  let store: Store | undefined;
  let engine: Engine | undefined;
  let team: Promise<Team> | undefined;

  const openedStore = () => (store ??= openStore({ dataDir: options.dataDir, onNotice: options.onNotice }));
  const localTeam = () => (team ??= openedStore().ensureTeam(LOCAL_TEAM));
  const browsers = createBrowserProvider({
    search: options.browserSearch,
    runningAsRoot: options.runningAsRoot,
    env: options.browserEnv,
    // One page per core at once (a batch's --concurrency changes it). The CLI exits right after
    // closing: its browser is killed, not asked to quit (pool-options.ts).
    pool: { concurrency: os.availableParallelism(), killOnClose: true },
    egressProxyPort: options.egress?.templatePort,
    pageEgressProxyPort: options.egress?.pagePort,
    launch: options.launch,
  });
  const openedEngine = () =>
    (engine ??= createEngine({
      // Read when the engine first needs it, so generate runs without opening the database.
      get store() {
        return openedStore();
      },
      browsers,
      renderTimeoutMs: options.renderTimeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS,
      // One team lives in an embedded store: its files are issued to it whoever asked.
      publishPdf: async (_teamId, pdf) => localFileUrl(await openedStore().issueFile((await localTeam()).id, pdf, EMBEDDED_URL_TTL_MS)),
      enforceLimits: false,
      spool: options.spool,
      // A merge part given by URL: public addresses, and this machine's too with --allow-local (as generate's pages).
      fetchPart: createPartFetcher(() => localUrlAccess(options.egress?.allowsLocal?.() ?? false)),
    }));

  return {
    description: `the embedded store in ${options.dataDir}`,
    engine: openedEngine,
    team: localTeam,
    localBrowser: {
      prewarm() {
        // A launch that fails here fails again, and is reported, in the render that follows.
        void browsers.browser().catch(() => undefined);
      },
      setConcurrency: (concurrency) => browsers.setConcurrency(concurrency),
    },
    async publish(templateId, artifact, meta) {
      const published = await openedEngine().publish(await localTeam(), templateId, encodeArtifact(artifact), artifact.sourceName, meta?.propsSchema);
      return { id: published.id, uuid: published.uuid, version: published.version, publishedAt: published.publishedAt };
    },
    async propsSchema(idOrUuid, version) {
      return openedEngine().propsSchema(await localTeam(), idOrUuid, version);
    },
    async list() {
      return openedEngine().list(await localTeam());
    },
    async render(idOrUuid, props, renderOptions, version, signal) {
      return withTimeoutAdvice(openedEngine().renderDocument(await localTeam(), idOrUuid, props, renderOptions, version, signal), options.timeoutAdvice);
    },
    async versions(idOrUuid) {
      const details = await openedStore().getTemplate((await localTeam()).id, idOrUuid);
      if (!details) throw notFound(`No template "${idOrUuid}" in ${options.dataDir}. Run \`imprint list\` to see the published ids.`);
      return { id: details.id, versions: details.versions.map(({ version, publishedAt, bytes, artifactSha256, publishedBy, rollbackOf }) => ({ version, publishedAt, bytes, artifactSha256, publishedBy, rollbackOf })) };
    },
    async rollback(idOrUuid, version) {
      const { id, uuid, version: latest, publishedAt, rollbackOf } = await openedStore().rollbackTemplate((await localTeam()).id, idOrUuid, version);
      return { id, uuid, version: latest, publishedAt, rollbackOf };
    },
    async renderArtifact(artifact, props, renderOptions) {
      return withTimeoutAdvice(openedEngine().renderUnpublished(await localTeam(), artifact, props, renderOptions), options.timeoutAdvice);
    },
    async einvoice(idOrUuid, props, request, version) {
      return openedEngine().einvoiceDocument(await localTeam(), idOrUuid, props, request, version);
    },
    async einvoiceArtifact(artifact, props, request) {
      return openedEngine().einvoiceUnpublished(await localTeam(), artifact, props, request);
    },
    generate(source, renderOptions, signal) {
      return withTimeoutAdvice(openedEngine().generate(GENERATE_TEAM, source, renderOptions, signal), options.timeoutAdvice);
    },
    async close() {
      await (engine ?? browsers).close();
      await store?.close();
    },
  };
}
