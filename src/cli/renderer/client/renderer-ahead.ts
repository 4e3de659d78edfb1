/**
 * Reaching the warm renderer from the entry point, before the CLI program loads: the
 * connection (or the renderer's start, when none runs) then happens while Node loads the
 * program, instead of after it. The same argument scan as launch-ahead.ts decides; a wrong
 * guess costs nothing but a renderer that idles out, and the command checks that the
 * renderer reached is the one its settings name (by key) before it uses it.
 */
import { browserSettings } from '../../../backend/browser-settings.js';
import { openLoginStore } from '../../config/login-store.js';
import { resolveDataDir } from '../../../backend/data-dir.js';
import type { Environment } from '../../../backend/environment.js';
import { rendersLocally, scanArgs } from '../../launch-ahead.js';
import { openRenderer, type RendererConnection } from './renderer-client.js';
import { rendererEnabled } from '../renderer-settings.js';
import { rendererTargetFrom } from '../renderer-target.js';
import { renderTimeoutMs } from '../../../backend/render-timeout.js';

export interface RendererAhead {
  /** The key of the renderer it reached: the command uses it only for the same key. */
  key: string;
  connection: Promise<RendererConnection | undefined>;
}

/**
 * What of the CLI's run (cli-runtime.ts) this reads and fills, declared here: the run's state
 * holds a RendererAhead, so importing its type back would close a circle.
 */
export interface RunWithRendererAhead {
  readonly build: string;
  rendererAhead?: RendererAhead;
}

export function startRendererAhead(args: readonly string[], env: Environment, runtime: RunWithRendererAhead): void {
  const scanned = scanArgs(args);
  if (scanned.ref === undefined || scanned.batch) return;
  try {
    if (!rendersLocally(scanned, env as NodeJS.ProcessEnv, () => openLoginStore(env.IMPRINT_CONFIG_DIR || undefined).read())) return;
    if (!rendererEnabled(env, scanned.noRenderer ? false : undefined)) return;
    const target = rendererTargetFrom({
      dataDir: resolveDataDir({ dataDir: scanned.flags.dataDir }, env),
      browser: browserSettings(scanned.flags.browser, env),
      allowLocal: false,
      renderTimeoutMs: renderTimeoutMs(scanned.flags.timeout, env),
      build: runtime.build,
      env,
    });
    // Whatever goes wrong here, the command renders in-process, as for a renderer lost.
    const connection = openRenderer(target).catch(() => undefined);
    runtime.rendererAhead = { key: target.spec.key, connection };
  } catch {
    // A bad setting: the command reports it, with its own message, once it has loaded.
  }
}
