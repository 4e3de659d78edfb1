/** The embedded backend: the engine on a data folder of this machine, with a local browser. */
import { pathToFileURL } from 'node:url';
import { encodeArtifact, type Artifact } from '../../core/artifact.js';
import { createEngine, type Engine } from '../../core/engine.js';
import { createBrowserProvider } from '../../core/render/browser-provider.js';
import type { BrowserSearch } from '../../core/render/find-browser.js';
import { openStore, type Store, type Team } from '../../core/store/index.js';
import type { Backend } from './backend.js';

export const LOCAL_TEAM = 'local';
export const EMBEDDED_URL_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_RENDER_TIMEOUT_MS = 30_000;

export interface EmbeddedOptions {
  dataDir: string;
  browserSearch: BrowserSearch;
  browserEnv: Record<string, string | undefined>;
  runningAsRoot: boolean;
}

export interface EmbeddedBackend extends Backend {
  engine(): Engine;
  team(): Team;
  /** A template bundled from a local file, rendered without publishing. */
  renderArtifact(artifact: Artifact, props: unknown, options: Parameters<Engine['renderUnpublished']>[3]): ReturnType<Engine['renderUnpublished']>;
}

export function createEmbeddedBackend(options: EmbeddedOptions): EmbeddedBackend {
  // Opened on first use: `imprint generate` never needs the database, only the browser.
  let store: Store | undefined;
  let engine: Engine | undefined;
  let team: Team | undefined;

  const openedStore = () => (store ??= openStore({ dataDir: options.dataDir }));
  const localTeam = () => (team ??= openedStore().ensureTeam(LOCAL_TEAM));
  const openedEngine = () =>
    (engine ??= createEngine({
      store: openedStore(),
      browsers: createBrowserProvider({ search: options.browserSearch, runningAsRoot: options.runningAsRoot, env: options.browserEnv }),
      renderTimeoutMs: DEFAULT_RENDER_TIMEOUT_MS,
      publishPdf: (teamId, pdf) => pathToFileURL(openedStore().issueFile(teamId, pdf, EMBEDDED_URL_TTL_MS).path).href,
      enforceLimits: false,
    }));

  return {
    description: `the embedded store in ${options.dataDir}`,
    engine: openedEngine,
    team: localTeam,
    async publish(templateId, artifact) {
      const published = openedEngine().publish(localTeam(), templateId, encodeArtifact(artifact), artifact.sourceName);
      return { id: published.id, uuid: published.uuid, version: published.version, publishedAt: published.publishedAt };
    },
    async list() {
      return openedEngine().list(localTeam());
    },
    render(idOrUuid, props, renderOptions) {
      return openedEngine().renderDocument(localTeam(), idOrUuid, props, renderOptions);
    },
    renderArtifact(artifact, props, renderOptions) {
      return openedEngine().renderUnpublished(localTeam(), artifact, props, renderOptions);
    },
    generate(source, renderOptions) {
      return openedEngine().generate(localTeam(), source, renderOptions);
    },
    async close() {
      await engine?.close();
      store?.close();
    },
  };
}
