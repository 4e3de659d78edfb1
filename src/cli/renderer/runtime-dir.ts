/**
 * Where the warm renderer's socket lives: a folder only this user can enter (0700), checked
 * to be this user's own and not a symlink, so no other user can connect to a renderer that
 * reads this user's data folder, nor plant a socket of their own for the CLI to talk to.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ImprintError } from '../../core/errors.js';
import { envText, type Environment } from '../environment.js';

/** IMPRINT_RUNTIME_DIR, else $XDG_RUNTIME_DIR/imprint, else a per-user folder in the temp folder. */
export function runtimeDirPath(env: Environment): string {
  const given = envText(env, 'IMPRINT_RUNTIME_DIR');
  if (given) return path.resolve(given);
  const xdg = envText(env, 'XDG_RUNTIME_DIR');
  if (xdg) return path.join(xdg, 'imprint');
  return path.join(os.tmpdir(), `imprint-${os.userInfo().uid}`);
}

/** Creates the folder (0700) if needed, and refuses one another user could reach. */
export function ensureRuntimeDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) {
    throw new ImprintError('INTERNAL', `The renderer folder ${dir} is not a folder of your own. Remove it, or set IMPRINT_RUNTIME_DIR to a private folder; --no-renderer renders without it.`);
  }
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  return dir;
}

export interface RendererPaths {
  socket: string;
  /** Held by the running renderer (its pid inside): two starting at once, one wins. */
  lock: string;
  log: string;
}

export const rendererPaths = (dir: string, name: string): RendererPaths => ({
  socket: path.join(dir, `r-${name}.sock`),
  lock: path.join(dir, `r-${name}.lock`),
  log: path.join(dir, `r-${name}.log`),
});
