/**
 * Where the renderer for a set of settings is, and how to start it: what both ends agree on.
 * The client computes it to reach (or start) a renderer; the renderer process is handed it at
 * its start and checks a nail call against it.
 */
import type { BrowserSettings } from '../../backend/browser-settings.js';
import type { Environment } from '../../backend/environment.js';
import { spoolFromBytes } from '../../backend/spool-setting.js';
import { defaultRendererSettings, rendererIdentity, rendererIdleMs, rendererTiming, type RendererSettings } from './renderer-settings.js';
import { ensureRuntimeDir, rendererPaths, runtimeDirPath, type RendererPaths } from './runtime-dir.js';

/** A renderer: its settings, its handshake key, its files, how long it idles. */
export interface RendererSpec {
  settings: RendererSettings;
  key: string;
  paths: RendererPaths;
  idleMs: number;
  /** IMPRINT_RENDERER_TIMING: each nail call's phases logged (process/nail-timing.ts). */
  timing: boolean;
}

/** A renderer to open: its spec, and how the client starts it when none runs. */
export interface OpenRenderer {
  spec: RendererSpec;
  env: Environment;
  /** The script that runs the CLI (process.argv[1]): the renderer runs the same build. */
  entryScript: string;
}

export interface TargetParts {
  dataDir: string;
  browser: BrowserSettings;
  allowLocal: boolean;
  /** The call's render deadline (backend/render-timeout.ts): a renderer serves one deadline. */
  renderTimeoutMs: number;
  /** This build of the CLI (cli-runtime.ts). */
  build: string;
  env: Environment;
}

export function rendererTargetFrom({ dataDir, browser, allowLocal, renderTimeoutMs, build, env }: TargetParts): OpenRenderer {
  // The spool threshold is the call's environment's, as for a render in the CLI's own process (context.ts).
  const settings = defaultRendererSettings(dataDir, browser, allowLocal, renderTimeoutMs, spoolFromBytes(env));
  const identity = rendererIdentity(settings, build);
  const dir = ensureRuntimeDir(runtimeDirPath(env));
  return {
    spec: { settings, key: identity.key, paths: rendererPaths(dir, identity.name), idleMs: rendererIdleMs(env), timing: rendererTiming(env) },
    env,
    // The script that runs this CLI: the renderer runs the same build.
    entryScript: process.argv[1],
  };
}
