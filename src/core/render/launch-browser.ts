/**
 * Starts Chromium for printing. The flags stop the background traffic Chromium sends at
 * start-up (on a closed network it floods the log with refused connections and slows every
 * launch); --no-sandbox only when running as root, where Chromium refuses to start without it.
 * The browser is driven over a pipe: no debugging port that a page could reach.
 *
 * Chromium is spawned first and Puppeteer connected to it afterwards (chromium-process.ts):
 * the browser boots on another core while Puppeteer's modules load, which puppeteer.launch
 * would do one after the other. The returned Browser's close() keeps the meaning it has for
 * a launched browser: it resolves once Chromium has exited and its profile folder is gone.
 * What it returns carries the process's pid and a kill, so the pool that owns the browser
 * never needs to know how it was started.
 */
import os from 'node:os';
import type { Browser } from 'puppeteer-core';
import { ImprintError } from '../errors.js';
import { makeTempFolder } from '../temp-folder.js';
import type { LaunchedBrowser } from './browser-types.js';
import { egressChromiumArgs } from '../net/chromium-flags.js';
import { writeEgressProfilePreferences } from '../net/profile-preferences.js';
import { spawnChromium, type ChromiumProcess } from './chromium-process.js';
import { PUPPETEER_DEFAULT_FLAGS } from './puppeteer-default-flags.js';

export const QUIET_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-dev-shm-usage',
  '--mute-audio',
];

/**
 * V8 flags for the pages (renderers). A warm template page drops about 0.5 MB of DOM, layout
 * objects and React fibres per document; V8 starts a full (unified, V8 + Oilpan) GC whenever
 * the heaps grow about 4 MB past what the last GC left (13 MB live for the invoice's page), so
 * every 9 documents, each GC costing ~25 ms of CPU across the main thread and the concurrent
 * markers. An initial heap of 32 MB keeps the limit at 52 MB instead: a GC every 30 to 40
 * documents (47 against 11 in 400 invoices, `--trace-gc`), no higher peak of the renderer's
 * memory (250-260 MB either way), and 2 to 4 ms less CPU a document (bench/HISTORY.md, sixth
 * round). 64 MB left no GC in 400 documents but raised the peak by 100 MB.
 */
export const RENDERER_V8_FLAGS = ['--initial-heap-size=32'];

export interface LaunchOptions {
  executablePath: string;
  runningAsRoot: boolean;
  /** The browser's environment: callers pass only what Chromium needs, never service secrets. */
  env?: Record<string, string | undefined>;
  /**
   * Route every request of the browser through this egress proxy, which checks it: the proxy flags,
   * plus profile preferences that keep WebRTC's UDP off the direct path (the command-line
   * switch alone is ignored by full Chromium).
   */
  egressProxyPort?: () => Promise<number>;
  /** Flags beyond Imprint's own: only the benches pass them, to measure a flag before taking it. */
  extraArgs?: readonly string[];
}

/** Puppeteer waits this long for a launch by default; a browser that takes longer is broken. */
const START_TIMEOUT_MS = 30_000;
/** A browser that does not close in this long is killed: shutdown must not hang. */
export const CLOSE_GRACE_MS = 5_000;

/** Flags Chromium reads only once (the last one given), whose values are lists: merged into one. */
const LIST_FLAGS = [
  { prefix: '--disable-features=', separator: ',' },
  { prefix: '--js-flags=', separator: ' ' },
];

/**
 * Our flags after Puppeteer's defaults; each flag once (some quiet flags are defaults too).
 * Chromium reads only the last --disable-features and --js-flags, so each is one flag holding
 * Puppeteer's values, ours, then the caller's (a V8 flag given later wins in V8), in the place of
 * Puppeteer's, so the list reads as Puppeteer's with ours added. (Imprint turned off Chromium's
 * omnibox popup WebUI itself, WebUIOmniboxPopup and WebUIOmniboxAimPopup, until Puppeteer's
 * defaults did: a renderer loading two WebUI pages per window, about a second of CPU at launch.)
 */
export function chromiumArgs(runningAsRoot: boolean, extra: readonly string[] = []): string[] {
  const flags = [
    ...PUPPETEER_DEFAULT_FLAGS,
    ...QUIET_FLAGS,
    ...(runningAsRoot ? ['--no-sandbox'] : []),
    `--js-flags=${RENDERER_V8_FLAGS.join(' ')}`,
    ...extra,
  ];
  const listOf = (flag: string) => LIST_FLAGS.find((list) => flag.startsWith(list.prefix));
  const merged = new Map(
    LIST_FLAGS.map(({ prefix, separator }) => {
      const values = flags.filter((flag) => flag.startsWith(prefix)).flatMap((flag) => flag.slice(prefix.length).split(separator));
      return [prefix, `${prefix}${[...new Set(values.map((value) => value.trim()).filter(Boolean))].join(separator)}`];
    }),
  );
  return [...new Set(flags.map((flag) => merged.get(listOf(flag)?.prefix ?? '') ?? flag))];
}

function startFailure(options: LaunchOptions, chromium: ChromiumProcess, reason: string, cause?: unknown): ImprintError {
  const stderr = chromium.stderrTail().trim().split('\n').slice(-3).join(' | ');
  return new ImprintError('BROWSER_FAILED', `Chromium (${options.executablePath}) failed to start: ${reason}${stderr ? ` (${stderr})` : ''}`, { cause });
}

/** Puppeteer over the pipe, or the reason Chromium never answered on it. */
async function connect(options: LaunchOptions, chromium: ChromiumProcess): Promise<Browser> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    chromium.child.once('error', (error) => reject(startFailure(options, chromium, error.message, error)));
    chromium.child.once('exit', (code, signal) => reject(startFailure(options, chromium, `it exited (${signal ?? `code ${code}`}) before it could be driven`)));
    timer = setTimeout(() => reject(startFailure(options, chromium, `no answer within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
  });
  try {
    // Loaded while Chromium boots. Only the CDP connector that puppeteer.connect calls, not the
    // package's entry: the entry also loads the launchers, the browser downloader and the
    // WebDriver BiDi side, about 60 ms more of the one thread a cold render waits on. What the
    // entry does first is done here too: node-env-setup gives Puppeteer Node's fs and
    // util.debuglog, and its debug() is passed as the logger, as puppeteer.connect does
    // (Puppeteer 25 logs through util.debuglog: NODE_DEBUG=puppeteer:*).
    const [, { _connectToCdpBrowser }, { PipeTransport }, { debug }] = await Promise.race([
      Promise.all([
        import('puppeteer-core/internal/node-env-setup.js'),
        import('puppeteer-core/internal/cdp/BrowserConnector.js'),
        import('puppeteer-core/internal/node/PipeTransport.js'),
        import('puppeteer-core/internal/common/Debug.js'),
      ]),
      gaveUp,
    ]);
    const transport = new PipeTransport(chromium.pipeWrite, chromium.pipeRead, debug);
    const connected = _connectToCdpBrowser(transport, '', { defaultViewport: { width: 800, height: 600 } }, debug);
    // The same class as the package's Browser (the entry re-exports these files); only its
    // declaration comes from another .d.ts.
    return (await Promise.race([connected, gaveUp])) as unknown as Browser;
  } finally {
    clearTimeout(timer);
    gaveUp.catch(() => undefined);
  }
}

export async function launchBrowser(options: LaunchOptions): Promise<LaunchedBrowser> {
  const extra = [...(options.egressProxyPort ? egressChromiumArgs(await options.egressProxyPort()) : []), ...(options.extraArgs ?? [])];
  const profileDir = await makeTempFolder(os.tmpdir(), 'imprint-profile-', 'Chromium could not be started', 'Set TMPDIR to a writable folder.');
  if (options.egressProxyPort) await writeEgressProfilePreferences(profileDir);
  const chromium = spawnChromium(options.executablePath, chromiumArgs(options.runningAsRoot, extra), profileDir, options.env);
  let browser: Browser;
  try {
    browser = await connect(options, chromium);
  } catch (error) {
    chromium.kill();
    await chromium.exited;
    throw error;
  }
  const closeConnection = browser.close.bind(browser);
  // Browser.close asks Chromium to quit; this waits until it has (profile removed), killing
  // the process group if it takes longer than the grace.
  browser.close = async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)));
    try {
      // A browser that already lost its connection (crashed, killed) has nothing to ask: the
      // kill below makes sure of it.
      const asked = closeConnection().catch((error: unknown) => {
        if (browser.connected) throw error;
      });
      await Promise.race([asked.then(() => chromium.exited), late]);
    } finally {
      clearTimeout(timer);
      chromium.kill();
      await chromium.exited;
    }
  };
  return {
    browser,
    pid: chromium.child.pid,
    async kill() {
      chromium.kill();
      await chromium.exited;
    },
  };
}
