/**
 * Where the warm renderer's socket lives: a folder only this user can enter (0700), this
 * user's own and not a symlink, so no other user can connect to a renderer that reads this
 * user's data folder, nor plant a socket of their own for the CLI to send documents to and
 * take PDFs from.
 *
 * The folder is made private by io/private-dir.ts's rules; one that cannot be (a symlink
 * planted at its name, a folder another user owns) is refused with UnsafeRuntimeDir: the CLI
 * then renders in its own process, with a one-line notice, so no local user can block another's
 * renders. Before connecting, the socket itself is checked to
 * be this user's (checkSocketOwner).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ImprintError } from '../../core/errors.js';
import { envText, type Environment } from '../../backend/environment.js';
import { ensurePrivateDir } from '../io/private-dir.js';

/** IMPRINT_RUNTIME_DIR, else $XDG_RUNTIME_DIR/imprint, else a per-user folder in the temp folder. */
export function runtimeDirPath(env: Environment): string {
  const given = envText(env, 'IMPRINT_RUNTIME_DIR');
  if (given) return path.resolve(given);
  const xdg = envText(env, 'XDG_RUNTIME_DIR');
  if (xdg) return path.join(xdg, 'imprint');
  return path.join(os.tmpdir(), `imprint-${os.userInfo().uid}`);
}

/** The renderer's folder cannot be made safe: render in-process (client/use-renderer.ts says so in one line). */
export class UnsafeRuntimeDir extends ImprintError {
  constructor(dir: string, why: string) {
    super(
      'INTERNAL',
      `The warm renderer's folder ${dir} ${why}, so it is not used. Remove it, or set IMPRINT_RUNTIME_DIR to a private folder; --no-renderer renders without it.`,
    );
    this.name = 'UnsafeRuntimeDir';
  }
}

/**
 * The folder, private and this user's (io/private-dir.ts): made 0700 when missing; made anew
 * when others could write it; UnsafeRuntimeDir when neither is possible.
 */
export function ensureRuntimeDir(dir: string): string {
  try {
    return ensurePrivateDir(dir, (why) => new UnsafeRuntimeDir(dir, why));
  } catch (error) {
    // Whatever stops the folder from being made safe (a read-only temp folder...) is the same
    // case: the renderer is not used, the render still happens.
    if (error instanceof UnsafeRuntimeDir) throw error;
    throw new UnsafeRuntimeDir(dir, `cannot be made private (${(error as Error).message})`);
  }
}

/**
 * Whether the CLI may connect to the socket at `socketPath`: 'absent' when there is none, else
 * it must be a socket this user owns. Call it right before connecting (the warm renderer's
 * client does; a thin client of the socket should too).
 */
export function checkSocketOwner(socketPath: string): 'absent' | 'ours' | { refused: string } {
  const stat = fs.lstatSync(socketPath, { throwIfNoEntry: false });
  if (!stat) return 'absent';
  if (!stat.isSocket()) return { refused: `${socketPath} is not a socket` };
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return { refused: `${socketPath} belongs to another user (uid ${stat.uid})` };
  return 'ours';
}

export interface RendererPaths {
  socket: string;
  /** Held by the running renderer (its pid inside): two starting at once, one wins. */
  lock: string;
  log: string;
}

/**
 * The file in the runtime folder naming the socket of the renderer last used (its file name
 * only): where bin/imprint.js's nail path (client/nail-client.ts) sends a call, having computed none
 * of the settings that name a socket. The renderer there checks the call is its own.
 */
export const LAST_RENDERER_FILE = 'last';
export const isSocketName = (name: string) => /^r-[0-9a-f]{16}\.sock$/.test(name);

export const rendererPaths = (dir: string, name: string): RendererPaths => ({
  socket: path.join(dir, `r-${name}.sock`),
  lock: path.join(dir, `r-${name}.lock`),
  log: path.join(dir, `r-${name}.log`),
});
