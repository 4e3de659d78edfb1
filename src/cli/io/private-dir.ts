/**
 * A folder only this user can have written: this user's own, not a symbolic link, writable by
 * no one else. What the CLI trusts from a folder it shares a parent with other users (a temp
 * folder, a cache folder set to a shared place): the warm renderer's socket folder
 * (renderer/runtime-dir.ts) and the unpacked e-invoice rules (einvoice-rules.ts), whose XSLT
 * runs as this user.
 *
 * Nothing another user could have made is trusted. A folder of this user's that others could
 * write (an old 0777 one) may hold anything planted: it is moved aside and made anew, empty and
 * 0700. A folder this user cannot make safe (a symlink planted at its name, a folder another user
 * owns) is refused through `unsafe`, and nothing is written through it.
 */
import fs from 'node:fs';
import path from 'node:path';

const myUid = () => process.getuid?.();

/** Why `stat` (an lstat) is not a folder this user alone could have written, or undefined. */
export function foreignReason(stat: fs.Stats): string | undefined {
  if (stat.isSymbolicLink()) return 'is a symbolic link (anyone may have planted it)';
  if (!stat.isDirectory()) return 'is not a folder';
  const uid = myUid();
  if (uid !== undefined && stat.uid !== uid) return `belongs to another user (uid ${stat.uid})`;
  return undefined;
}

/** Whether `stat` (an lstat) is a folder ensurePrivateDir would use as it is: this user's own, not a symlink, that no one else can write. */
export const isPrivateDir = (stat: fs.Stats) => !foreignReason(stat) && (stat.mode & 0o022) === 0;

/**
 * `dir`, private and this user's: made 0700 when missing; made anew when others could write it;
 * else the error `unsafe(why)` makes (why: "belongs to another user (uid 1001)").
 */
export function ensurePrivateDir(dir: string, unsafe: (why: string) => Error): string {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  let stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (stat && !foreignReason(stat) && (stat.mode & 0o022) !== 0) {
    // Ours, but others could have put anything in it: not trusted. Moved aside whole (the parent
    // may be a sticky temp folder where only its owner, this user, may rename it) and removed;
    // what cannot be removed stays aside.
    // Web Crypto, reached only on this rare path: node:crypto is not loaded by every call (renderer/client/fast-render.ts).
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
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw unsafe(`cannot be created (${(error as Error).message})`);
    }
    stat = fs.lstatSync(dir);
  }
  const why = foreignReason(stat);
  if (why) throw unsafe(why);
  // Readable by others (0755) but not writable: nothing could have been planted; just closed.
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  return dir;
}
