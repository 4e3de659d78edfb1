/**
 * Turns the global flags and the environment into the backend a command talks to. This is
 * the only place the CLI reads process.env for its settings.
 */
import os from 'node:os';
import path from 'node:path';
import envPaths from 'env-paths';
import type { Backend } from './backend/backend.js';
import { createEmbeddedBackend, type EmbeddedBackend } from './backend/embedded.js';

export interface GlobalOptions {
  dataDir?: string;
  embedded?: boolean;
  browser?: string;
}

export function resolveDataDir(options: GlobalOptions, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(options.dataDir ?? env.IMPRINT_DATA_DIR ?? envPaths('imprint', { suffix: '' }).data);
}

/** Chromium gets the environment it needs to run, without anything that looks like a secret. */
export function browserEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^IMPRINT_|KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i.test(name)));
}

export class CliContext {
  private embeddedBackend?: EmbeddedBackend;

  constructor(readonly options: GlobalOptions) {}

  get dataDir(): string {
    return resolveDataDir(this.options);
  }

  embedded(): EmbeddedBackend {
    return (this.embeddedBackend ??= createEmbeddedBackend({
      dataDir: this.dataDir,
      browserSearch: {
        explicitPath: this.options.browser ?? process.env.IMPRINT_BROWSER ?? process.env.PUPPETEER_EXECUTABLE_PATH,
        puppeteerCacheDir: process.env.PUPPETEER_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'puppeteer'),
      },
      browserEnv: browserEnvironment(),
      runningAsRoot: process.getuid?.() === 0,
    }));
  }

  /** The backend for template commands. Remote mode arrives with `imprint serve` (issue 3). */
  backend(): Backend {
    return this.embedded();
  }

  async close(): Promise<void> {
    await this.embeddedBackend?.close();
  }
}
