/** Where the renderer for a set of settings is, and how to start it. */
import type { BrowserSettings } from '../../backend/browser-settings.js';
import type { Environment } from '../../backend/environment.js';
import type { OpenRenderer } from './renderer-client.js';
import { defaultRendererSettings, rendererIdentity, rendererIdleMs, rendererTiming } from './renderer-settings.js';
import { ensureRuntimeDir, rendererPaths, runtimeDirPath } from './runtime-dir.js';

export interface TargetParts {
  dataDir: string;
  browser: BrowserSettings;
  allowLocal: boolean;
  /** This build of the CLI (cli-runtime.ts). */
  build: string;
  env: Environment;
}

export function rendererTargetFrom({ dataDir, browser, allowLocal, build, env }: TargetParts): OpenRenderer {
  const settings = defaultRendererSettings(dataDir, browser, allowLocal);
  const identity = rendererIdentity(settings, build);
  const dir = ensureRuntimeDir(runtimeDirPath(env));
  return {
    spec: { settings, key: identity.key, paths: rendererPaths(dir, identity.name), idleMs: rendererIdleMs(env), timing: rendererTiming(env) },
    env,
    // The script that runs this CLI: the renderer runs the same build.
    entryScript: process.argv[1],
  };
}
