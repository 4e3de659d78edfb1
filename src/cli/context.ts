/**
 * Turns the global flags and the environment (handed in from environment.ts) into the backend
 * a command talks to: flag, else variable, else default, decided here for every command.
 */
import { spoolPolicyFrom } from '../backend/spool-setting.js';
import { openStoreAt, type Store } from '../core/store/open-store.js';
import type { Backend } from '../backend/backend.js';
import { createEmbeddedBackend, type EmbeddedBackend } from '../backend/embedded.js';
import { browserSettings, type BrowserSettings } from '../backend/browser-settings.js';
import type { LocalEgress } from '../backend/local-egress.js';
import type { CliRuntime } from './cli-runtime.js';
import { createRemoteBackend, type RemoteBackend } from '../backend/remote.js';
import { openLoginStore, type LoginStore } from './config/login-store.js';
import { chooseMode, requireConnection, resolveConnection, type Connection, type Mode } from './config/mode.js';
import { resolveDataDir } from '../backend/data-dir.js';
import { DATABASE_ENV, parseDatabaseUrl } from './database-option.js';
import { envText, envValue, type Environment } from '../backend/environment.js';
import { note } from './ui/status.js';
import { CLI_TIMEOUT_ADVICE, renderTimeoutMs } from '../backend/render-timeout.js';
import { createTemplateCache, type TemplateCache } from '../backend/template-cache/template-cache.js';
import { templateCacheBytes } from '../backend/template-cache/cache-settings.js';

export interface GlobalOptions {
  dataDir?: string;
  embedded?: boolean;
  remote?: boolean;
  apiUrl?: string;
  apiKey?: string;
  browser?: string;
  /** --no-renderer: render in this process, not on the warm renderer (renderer/). */
  renderer?: boolean;
}

export class CliContext {
  private embeddedBackend?: EmbeddedBackend;
  private remoteBackend?: RemoteBackend;
  private logins?: LoginStore;
  private dataStore?: Promise<Store>;
  private templates?: TemplateCache;
  private timeoutFlag?: string;

  constructor(
    readonly options: GlobalOptions,
    private readonly runtime: CliRuntime,
    /** The process's variables, for the settings a command reads beyond the global ones (serve-settings.ts). */
    readonly env: Environment,
  ) {}

  get dataDir(): string {
    return resolveDataDir(this.options, this.env);
  }

  /** How the browser is found and started, for the embedded engine and for `serve`. */
  get browserSettings(): BrowserSettings {
    return browserSettings(this.options.browser, this.env);
  }

  /** The reproducible-builds date, for deterministic renders (cli/document-options.ts). */
  get sourceDateEpoch(): string | undefined {
    return envText(this.env, 'SOURCE_DATE_EPOCH');
  }

  /** This build of the CLI, which a warm renderer must match (cli-runtime.ts). */
  get build(): string {
    return this.runtime.build;
  }

  /** The warm renderer reached from the entry point, if it was (renderer/client/renderer-ahead.ts). */
  get rendererAhead(): CliRuntime['rendererAhead'] {
    return this.runtime.rendererAhead;
  }

  /** The egress proxies of this run's browsers (generate sets its pages' policy on them). */
  get egress(): LocalEgress {
    return this.runtime.egress;
  }

  /** render's and generate's --timeout, read before the backend or the renderer is reached. */
  useTimeoutFlag(flag: string | undefined): void {
    this.timeoutFlag = flag;
  }

  /** A render's deadline: --timeout, else IMPRINT_TIMEOUT, else the default (backend/render-timeout.ts). */
  get renderTimeoutMs(): number {
    return renderTimeoutMs(this.timeoutFlag, this.env);
  }

  /** The local template cache in the data folder (backend/template-cache/): every command that builds a .tsx uses it. */
  templateCache(): TemplateCache {
    return (this.templates ??= createTemplateCache({ dataDir: this.dataDir, maxBytes: templateCacheBytes(this.env) }));
  }

  embedded(): EmbeddedBackend {
    const browser = this.browserSettings;
    return (this.embeddedBackend ??= createEmbeddedBackend({
      dataDir: this.dataDir,
      renderTimeoutMs: this.renderTimeoutMs,
      timeoutAdvice: CLI_TIMEOUT_ADVICE,
      browserSearch: browser.search,
      browserEnv: browser.env,
      runningAsRoot: browser.runningAsRoot,
      egress: this.runtime.egress,
      launch: this.runtime.launchAhead.launch,
      onNotice: note,
      spool: spoolPolicyFrom(this.env),
    }));
  }

  /** `imprint login`'s stored URL and key (IMPRINT_CONFIG_DIR moves the config folder). */
  loginStore(): LoginStore {
    return (this.logins ??= openLoginStore(envText(this.env, 'IMPRINT_CONFIG_DIR')));
  }

  /** The API URL and key: --api-url/--api-key, else IMPRINT_API_URL/IMPRINT_API_KEY, else the login. */
  connection(): Connection {
    return resolveConnection(this.options, this.env, this.loginStore().read());
  }

  /** The URL and key given for this run only (flags, env), without the stored login. */
  givenConnection(): Connection {
    return resolveConnection(this.options, this.env, {});
  }

  mode(): Mode {
    return chooseMode(this.options, this.env, this.connection());
  }

  remote(): RemoteBackend {
    return (this.remoteBackend ??= createRemoteBackend(requireConnection(this.connection())));
  }

  /** The backend for template commands: see config/mode.ts for how the mode is chosen. */
  backend(): Backend {
    return this.mode() === 'remote' ? this.remote() : this.embedded();
  }

  /**
   * The store the operator commands (team, key) work on: PostgreSQL when --database (or
   * IMPRINT_DATABASE_URL) names one, else the data folder's SQLite.
   */
  store(database?: string): Promise<Store> {
    return (this.dataStore ??= openStoreAt({ dataDir: this.dataDir, databaseUrl: this.databaseUrl(database), onNotice: note }));
  }

  /** --database, else IMPRINT_DATABASE_URL; none: the data folder's own SQLite database. */
  databaseUrl(flag?: string): string | undefined {
    return flag ?? envValue(this.env, DATABASE_ENV, '--database <url>', parseDatabaseUrl);
  }

  async close(): Promise<void> {
    try {
      await this.embeddedBackend?.close();
      await this.remoteBackend?.close();
    } finally {
      // A store that failed to open has nothing to close; its error already reached the command that asked for it.
      await (await this.dataStore?.catch(() => undefined))?.close();
    }
  }
}
