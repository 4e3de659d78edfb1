/**
 * Where the warm renderer's socket lives: a folder only this user can enter (0700), this
 * user's own and not a symlink, so no other user can connect to a renderer that reads this
 * user's data folder, nor plant a socket of their own for the CLI to send documents to and
 * take PDFs from.
 *
 * Nothing another user could have made is trusted. A folder of this user's that others could
 * write (an old 0777 one) may hold a planted socket: it is moved aside and made anew, empty and
 * 0700. A folder this user cannot make safe (a symlink planted at its name, a folder another
 * user owns, in a shared temp folder where it cannot be removed) is refused with
 * UnsafeRuntimeDir: the CLI then renders in its own process, with a one-line notice, so no
 * local user can block another's renders. Before connecting, the socket itself is checked to
 * be this user's (checkSocketOwner).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ImprintError } from '../../core/errors.js';
import { envText, type Environment } from '../../backend/environment.js';

/** IMPRINT_RUNTIME_DIR, else $XDG_RUNTIME_DIR/imprint, else a per-user folder in the temp folder. */
export function runtimeDirPath(env: Environment): string {
  const given = envText(env, 'IMPRINT_RUNTIME_DIR');
  if (given) return path.resolve(given);
  const xdg = envText(env, 'XDG_RUNTIME_DIR');
  if (xdg) return path.join(xdg, 'imprint');
  return path.join(os.tmpdir(), `imprint-${os.userInfo().uid}`);
}

/** The renderer's folder cannot be made safe: render in-process (use-renderer.ts says so in one line). */
export class UnsafeRuntimeDir extends ImprintError {
  constructor(dir: string, why: string) {
    super(
      'INTERNAL',
      `The warm renderer's folder ${dir} ${why}, so it is not used. Remove it, or set IMPRINT_RUNTIME_DIR to a private folder; --no-renderer renders without it.`,
    );
    this.name = 'UnsafeRuntimeDir';
  }
}

const myUid = () => process.getuid?.();

/** Why `stat` (an lstat) is not a folder this user alone could have written, or undefined. */
function foreign(stat: fs.Stats): string | undefined {
  if (stat.isSymbolicLink()) return 'is a symbolic link (anyone may have planted it)';
  if (!stat.isDirectory()) return 'is not a folder';
  const uid = myUid();
  if (uid !== undefined && stat.uid !== uid) return `belongs to another user (uid ${stat.uid})`;
  return undefined;
}

/**
 * The folder, private and this user's: made 0700 when missing; made anew when others could
 * write it; UnsafeRuntimeDir when neither is possible.
 */
export function ensureRuntimeDir(dir: string): string {
  try {
    return makeRuntimeDir(dir);
  } catch (error) {
    // Whatever stops the folder from being made safe (a read-only temp folder...) is the same
    // case: the renderer is not used, the render still happens.
    if (error instanceof UnsafeRuntimeDir) throw error;
    throw new UnsafeRuntimeDir(dir, `cannot be made private (${(error as Error).message})`);
  }
}

function makeRuntimeDir(dir: string): string {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  let stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (stat && !foreign(stat) && (stat.mode & 0o022) !== 0) {
    // Ours, but others could have put anything in it (a socket under the expected name): not
    // trusted. Moved aside whole (the parent may be a sticky temp folder where only its owner,
    // this user, may rename it) and removed; what cannot be removed stays aside.
    // Web Crypto, reached only on this rare path: node:crypto is not loaded by every call (fast-render.ts).
    const aside = `${dir}.unsafe-${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(4))).toString('hex')}`;
    try {
      fs.renameSync(dir, aside);
    } catch (error) {
      // Another CLI moved it aside first: it is made anew below (or by that CLI).
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    try {
      fs.rmSync(aside, { recursive: true, force: true });
    } catch {
      // Another user's files in it that this user may not remove: left aside, never used.
    }
    stat = undefined;
  }
  if (!stat) {
    try {
      fs.mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      // Made meanwhile by someone else (checked below), or not possible at all.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new UnsafeRuntimeDir(dir, `cannot be created (${(error as Error).message})`);
    }
    stat = fs.lstatSync(dir);
  }
  const why = foreign(stat);
  if (why) throw new UnsafeRuntimeDir(dir, why);
  // Readable by others (0755) but not writable: nothing could have been planted; just closed.
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  return dir;
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
  const uid = myUid();
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
 * only): where bin/imprint.js's nail path (nail-client.ts) sends a call, having computed none
 * of the settings that name a socket. The renderer there checks the call is its own.
 */
export const LAST_RENDERER_FILE = 'last';
export const isSocketName = (name: string) => /^r-[0-9a-f]{16}\.sock$/.test(name);

/** Whether `stat` (an lstat of the runtime folder) is one ensureRuntimeDir would use as it is: this user's own folder, not a symlink, that no one else can write. */
export const isPrivateDir = (stat: fs.Stats) => !foreign(stat) && (stat.mode & 0o022) === 0;

export const rendererPaths = (dir: string, name: string): RendererPaths => ({
  socket: path.join(dir, `r-${name}.sock`),
  lock: path.join(dir, `r-${name}.lock`),
  log: path.join(dir, `r-${name}.log`),
});
