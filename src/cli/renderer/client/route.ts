/**
 * The one place that chooses how `imprint render <id>` reaches its PDF. Four routes, each
 * taken only when the one before it declines, having written nothing:
 *
 *   nail        the call sent whole to the renderer used last (nail-client.ts), which checks
 *               the call is its own, renders and writes the PDF (process/nail-serve.ts)
 *   thin        the request sent to the running renderer this call's settings name, without
 *               loading the CLI program (fast-render.ts); `generate --html <file>` starts here
 *   renderer    the CLI program, on the warm renderer, started when none runs (use-renderer.ts)
 *   in-process  the CLI program renders in its own process: remote mode (the
 *               service renders), --no-renderer, a runtime folder that is not safe, a renderer lost
 *
 * The first two are tried by bin/imprint.js before the CLI program loads (entryRoute: it hands
 * in the built files to load, so this module loads nothing itself and is about 2 KiB
 * of CommonJS there, dist/route.cjs); the last two by the render command (renderRoute).
 */
import type * as NailClient from './nail-client.js';
import type * as ThinPath from './fast-render.js';
import type { PendingRenderer } from './use-renderer.js';

/** Which route answered a call at the entry point: `full` runs the CLI program (dist/cli.js). */
export type EntryRoute = { route: 'nail' } | { route: 'thin' } | { route: 'full' };

export interface EntryFiles {
  /** dist/cli.js: the program `full` runs, and the build a renderer must be of (its mtime). */
  cliEntry: string;
  /** Requires dist/nail-client.cjs (CommonJS: no ES module loader before the nail call). */
  nail: () => typeof NailClient;
  /** Imports dist/fast-render.js. */
  thin: () => Promise<typeof ThinPath>;
}

const FULL: EntryRoute = { route: 'full' };

/** A build without one of the fast paths (an older build script) is only slower, never broken. */
const notBuilt = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
};

function loadNail(files: EntryFiles): typeof NailClient | undefined {
  try {
    return files.nail();
  } catch (error) {
    if (notBuilt(error)) return undefined;
    throw error;
  }
}

const loadThin = (files: EntryFiles): Promise<typeof ThinPath | undefined> =>
  files.thin().catch((error: unknown) => {
    if (notBuilt(error)) return undefined;
    throw error;
  });

/** Tries the nail route, then the thin one; `full` when both decline (or the command is another). */
export async function entryRoute(args: readonly string[], files: EntryFiles): Promise<EntryRoute> {
  if (args[0] !== 'render' && args[0] !== 'generate') return FULL;
  // generate has no nail route: the renderer runs only render calls sent whole.
  const nailed = args[0] === 'render' ? ((await loadNail(files)?.nailRender(args, files.cliEntry)) ?? false) : false;
  if (nailed === true) return { route: 'nail' };
  const thin = await loadThin(files);
  if (nailed) {
    // Rendered by the renderer: what is left to show (a note, an error, a PDF for stdout) is the thin path's to finish.
    if (!thin) throw new Error('dist/fast-render.js is missing: the renderer answered a call only the thin path can finish; run the build again.');
    await thin.finishNailed(nailed);
    return { route: 'nail' };
  }
  return thin && (await thin.fastRender(args, files.cliEntry)) ? { route: 'thin' } : FULL;
}

/** How the render command renders: on the warm renderer it reached, or in its own process. */
export type RenderRoute = { route: 'renderer'; renderer: PendingRenderer } | { route: 'in-process' };

/**
 * The render command's choice. A published template in embedded mode and a template file (always
 * rendered on this machine) go to the warm renderer, which keeps the file's bundle from the local
 * template cache hot; remote mode renders on the service.
 * `reach`: reachRenderer for this call, undefined when the renderer is off or cannot be used.
 */
export function renderRoute(call: { embedded: boolean }, reach: () => PendingRenderer | undefined): RenderRoute {
  if (!call.embedded) return { route: 'in-process' };
  const renderer = reach();
  return renderer ? { route: 'renderer', renderer } : { route: 'in-process' };
}
