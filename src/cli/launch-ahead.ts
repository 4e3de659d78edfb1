/**
 * A cold `imprint render` spends most of its time waiting: for Node to load the CLI's modules
 * and Puppeteer, then for Chromium to boot (about 0.3 s each on two cores). Started from the
 * entry point, before the CLI's modules load, Chromium boots on another core meanwhile.
 *
 * This needs to know, from the raw arguments, whether the command will render with the local
 * engine. The rules are the CLI's own (chooseMode, resolveConnection, isTemplateFile); only
 * the argument scan is approximate, and a wrong guess costs nothing but time: a browser
 * nobody takes is closed at the CLI's boundary (LaunchAhead.drop), and one that is missed is
 * launched when the render asks for it, as without this.
 *
 * The browser started ahead is kept in a LaunchAhead object the entry point makes for the run
 * (cli-runtime.ts); the embedded backend's pool launches through it, so the first launch with
 * the same options takes that browser instead of starting another.
 */
import type { LaunchedBrowser } from '../core/render/browser-types.js';
import { findBrowser } from '../core/render/find-browser.js';
import { launchBrowser, type LaunchOptions } from '../core/render/launch-browser.js';
import { browserSettings } from '../backend/browser-settings.js';
import type { LocalEgress } from '../backend/local-egress.js';
import { openLoginStore, type StoredLogin } from './config/login-store.js';
import { chooseMode, resolveConnection, type ModeFlags } from './config/mode.js';
import { rendererEnabled } from './renderer/renderer-settings.js';
import { isTemplateFile } from '../backend/template-ref.js';

export interface ScannedArgs {
  /** The first two words that are neither flags nor a global flag's value: `render invoice`. */
  command?: string;
  ref?: string;
  /** --help, --version: nothing will render. */
  informational: boolean;
  /** --no-renderer: the render runs in this process even when the warm renderer is on. */
  noRenderer?: boolean;
  /** render --batch: its own pool in this process, never the warm renderer. */
  batch?: boolean;
  flags: ModeFlags & { browser?: string; dataDir?: string; timeout?: string };
}

/** The program's global flags that take a value (program.ts; a unit test keeps the two lists equal). */
export const VALUE_FLAGS: Record<string, 'apiUrl' | 'apiKey' | 'browser' | 'dataDir'> = { '--api-url': 'apiUrl', '--api-key': 'apiKey', '--browser': 'browser', '--data-dir': 'dataDir' };

/** The global flags, wherever they stand (commander accepts them before and after the command). */
export function scanArgs(args: readonly string[]): ScannedArgs {
  const scanned: ScannedArgs = { informational: false, flags: {} };
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') break;
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = equals > 0 ? arg.slice(0, equals) : arg;
    if (['-h', '--help', '-V', '--version'].includes(name)) scanned.informational = true;
    else if (name === '--remote') scanned.flags.remote = true;
    else if (name === '--no-renderer') scanned.noRenderer = true;
    else if (name === '--batch') {
      scanned.batch = true;
      if (equals < 0) i++; // its rows file, not a word of the command
    }
    else if (name === '--embedded') scanned.flags.embedded = true;
    // render's --timeout names its renderer (renderer-settings.ts); its value is not a word of the command.
    else if (name === '--timeout') scanned.flags.timeout = equals > 0 ? arg.slice(equals + 1) : args[++i];
    else if (name in VALUE_FLAGS) {
      const value = equals > 0 ? arg.slice(equals + 1) : args[++i];
      scanned.flags[VALUE_FLAGS[name]] = value;
    } else if (!arg.startsWith('-')) words.push(arg);
  }
  [scanned.command, scanned.ref] = words;
  return scanned;
}

/** Whether the command will render with the local engine; any doubt (a bad setting) says no. */
export function rendersLocally(scanned: ScannedArgs, env: NodeJS.ProcessEnv, storedLogin: () => StoredLogin): boolean {
  if (scanned.informational || scanned.command !== 'render' || scanned.ref === undefined) return false;
  if (isTemplateFile(scanned.ref)) return true;
  try {
    return chooseMode(scanned.flags, env, resolveConnection(scanned.flags, env, storedLogin())) === 'embedded';
  } catch {
    // The CLI reports the bad setting itself, with its own message, once it has loaded.
    return false;
  }
}

/** A render of one document (a published template or a template file) goes to the warm renderer, which has a browser of its own. */
export function willUseRenderer(scanned: ScannedArgs, env: NodeJS.ProcessEnv): boolean {
  if (scanned.ref === undefined || scanned.batch) return false;
  try {
    return rendererEnabled(env, scanned.noRenderer ? false : undefined);
  } catch {
    // A bad IMPRINT_RENDERER: the CLI reports it once loaded; nothing renders meanwhile.
    return true;
  }
}

export interface LaunchAhead {
  /** Starts a launch now, unless one was already started. */
  start(options: LaunchOptions): void;
  /** Launches a browser: the one started ahead when its options are the same, else a new one. */
  launch(options: LaunchOptions): Promise<LaunchedBrowser>;
  /** Closes a browser started ahead that no launch took (the command failed or did not render). */
  drop(): Promise<void>;
}

/** Launches with the same options are interchangeable: the same binary, environment and proxy. */
const sameLaunch = (a: LaunchOptions, b: LaunchOptions) =>
  a.executablePath === b.executablePath &&
  a.runningAsRoot === b.runningAsRoot &&
  a.egressProxyPort === b.egressProxyPort &&
  JSON.stringify(a.env ?? null) === JSON.stringify(b.env ?? null);

export function createLaunchAhead(): LaunchAhead {
  let ahead: { options: LaunchOptions; launched: Promise<LaunchedBrowser> } | undefined;
  return {
    start(options) {
      if (ahead) return;
      const launched = launchBrowser(options);
      // A failure is reported by the launch that takes it, or by nobody if none does.
      launched.catch(() => undefined);
      ahead = { options, launched };
    },
    launch(options) {
      if (ahead && sameLaunch(ahead.options, options)) {
        const { launched } = ahead;
        ahead = undefined;
        return launched;
      }
      return launchBrowser(options);
    },
    async drop() {
      const left = ahead;
      ahead = undefined;
      if (left) await left.launched.then(({ browser }) => browser.close(), () => undefined);
    },
  };
}

/** Starts Chromium through `launchAhead` when the arguments say the command will render locally. */
export function startBrowserAhead(args: readonly string[], env: NodeJS.ProcessEnv, launchAhead: LaunchAhead, egress: LocalEgress): void {
  const scanned = scanArgs(args);
  if (!rendersLocally(scanned, env, () => openLoginStore(env.IMPRINT_CONFIG_DIR || undefined).read())) return;
  if (willUseRenderer(scanned, env)) return;
  const settings = browserSettings(scanned.flags.browser, env);
  void findBrowser(settings.search).then(
    (executablePath) => launchAhead.start({ executablePath, runningAsRoot: settings.runningAsRoot, env: settings.env, egressProxyPort: egress.templatePort }),
    // No browser: the render reports that, with how to install one, when it asks for it.
    () => undefined,
  );
}
