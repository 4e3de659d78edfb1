/**
 * A call of the common form (fast-args.ts) as both ends of the socket work it out: the client's
 * thin path (client/fast-render.ts) before it sends one, the renderer (process/nail-serve.ts)
 * when a nail call arrives whole. One set of functions, so the renderer takes a nail call only
 * when the thin path would have sent the same request to that same renderer.
 */
import { parseAccessibility } from '../../core/pdf/accessibility-options.js';
import fs from 'node:fs';
import path from 'node:path';
import { kebabCaseFromFileName } from '../../core/template-id.js';
import { parseProps, type RenderOptions } from '../../core/render-request.js';
import { browserSettings } from '../../backend/browser-settings.js';
import { openLoginStore } from '../config/login-store.js';
import { chooseMode, resolveConnection, type ModeFlags } from '../config/mode.js';
import { resolveDataDir } from '../../backend/data-dir.js';
import { documentOptions } from '../document-options.js';
import { envText, processEnvironment, type Environment } from '../../backend/environment.js';
import { rendererEnabled } from './renderer-settings.js';
import { rendererTargetFrom } from './renderer-target.js';
import type { RenderRequest } from './wire.js';
import { renderTimeoutMs } from '../../backend/render-timeout.js';

/**
 * The running renderer the command would reach in embedded mode, or undefined (then the full
 * CLI runs). `env`: the call's environment (the renderer checks a nail call's with it: process/nail-serve.ts).
 */
export function runningRenderer(fast: { embedded?: boolean; file?: boolean; dataDir?: string; browser?: string }, allowLocal: boolean, cliEntry: string, env = processEnvironment()) {
  const flags: ModeFlags = { embedded: fast.embedded };
  // A template file renders on this machine in either mode (commands/render.ts).
  const mode = fast.file ? 'embedded' : chooseMode(flags, env, resolveConnection(flags, env, openLoginStore(envText(env, 'IMPRINT_CONFIG_DIR')).read()));
  if (mode !== 'embedded' || !rendererEnabled(env, undefined)) return undefined;
  const build = String(fs.statSync(cliEntry, { throwIfNoEntry: false })?.mtimeMs ?? '');
  const target = rendererTargetFrom({
    dataDir: resolveDataDir({ dataDir: fast.dataDir }, env),
    browser: browserSettings(fast.browser, env),
    allowLocal,
    // The common form has no --timeout: IMPRINT_TIMEOUT or the default.
    renderTimeoutMs: renderTimeoutMs(undefined, env),
    build,
    env,
  });
  return { env, spec: target.spec };
}

/** The file name a PDF gets without -o, as the render command names it: the id, or the template file's name in kebab case. */
export const outputName = (fast: { ref: string; file?: boolean }) => (fast.file ? kebabCaseFromFileName(fast.ref) : fast.ref);

/** The render request the command sends: a template file goes as its absolute path (resolved in `cwd`), the ref kept for messages. */
export const renderRequest = (fast: { ref: string; file?: boolean }, props: unknown, options: RenderOptions, cwd: string): RenderRequest => ({
  type: 'render',
  ref: fast.ref,
  ...(fast.file ? { file: path.resolve(cwd, fast.ref) } : {}),
  props,
  options,
});

/** As readJsonInput reads a props file; a file it cannot read or parse throws, and the call is declined to the CLI, which names the error. */
export const readPropsFile = (file: string | undefined) => (file === undefined ? undefined : parseProps(JSON.parse(fs.readFileSync(file, 'utf8'))));

/** The options the render and generate commands build for the common form: a PDF, --deterministic with the call's SOURCE_DATE_EPOCH, the accessibility switches. */
export const commonOptions = (fast: { deterministic?: boolean; tagged?: boolean; outline?: boolean }, env: Environment): RenderOptions => ({
  format: 'pdf',
  ...documentOptions({ deterministic: fast.deterministic }, envText(env, 'SOURCE_DATE_EPOCH')),
  ...parseAccessibility({ tagged: fast.tagged, outline: fast.outline }),
});
