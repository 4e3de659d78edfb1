/**
 * The data folder holds secrets: webhook signing secrets and job download tokens in the
 * database, issued PDFs and the templates' artifacts beside it. Whoever can read it can forge a
 * team's webhooks and download every job's PDFs, so it is this user's alone: the folder and its
 * subfolders 0700, every file 0600. A folder made by an older Imprint (0755, files 0644) is
 * tightened when it is opened, and the caller is told once, so it can say so. A folder another
 * user owns is refused: that user could read everything kept in it, or swap what it holds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ImprintError } from '../errors.js';

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const loose = (mode: number) => (mode & 0o077) !== 0;

/** Every file and folder under `dir` made private; the paths that were not, in walk order. */
function tightenTree(dir: string, tightened: string[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const where = path.join(dir, entry.name);
    // A symlink's own mode means nothing, and its target may be anywhere: left as it is.
    if (entry.isSymbolicLink()) continue;
    const stat = fs.lstatSync(where);
    if (entry.isDirectory()) {
      if (loose(stat.mode)) {
        fs.chmodSync(where, PRIVATE_FOLDER_MODE);
        tightened.push(where);
      }
      tightenTree(where, tightened);
    } else if (loose(stat.mode)) {
      // The owner's bits stay (0644 becomes 0600); the group's and others' go.
      fs.chmodSync(where, stat.mode & 0o700);
      tightened.push(where);
    }
  }
}

export interface SecuredFolder {
  /** Set when the folder was readable by others (an older Imprint made it) and was tightened now. */
  tightened?: { folder: string; entries: number };
}

/**
 * Makes `dataDir` (and `subfolders` in it) when missing, 0700; refuses one another user owns;
 * tightens one others can reach. Cheap when the folder is private already: one stat per folder.
 */
export function secureDataFolder(dataDir: string, subfolders: readonly string[] = []): SecuredFolder {
  try {
    // The parents are made as any folder is; only the data folder itself is private.
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  } catch (error) {
    throw new ImprintError(
      'INTERNAL',
      `Cannot create the Imprint data folder ${dataDir}: ${(error as Error).message}. Check the path and its permissions, or choose another data folder.`,
      { cause: error },
    );
  }
  const stat = fs.statSync(dataDir);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new ImprintError(
      'INTERNAL',
      `The Imprint data folder ${dataDir} belongs to another user (uid ${stat.uid}; this is uid ${uid}). It holds webhook secrets and download tokens, so Imprint uses only a folder of its own user: run Imprint as that user, give the folder to this one (chown), or choose another data folder.`,
    );
  }
  if (!stat.isDirectory()) throw new ImprintError('INTERNAL', `The Imprint data folder ${dataDir} is not a folder. Choose another data folder.`);
  let secured: SecuredFolder = {};
  if (loose(stat.mode)) {
    // An older Imprint's folder: everything in it was made readable by all.
    fs.chmodSync(dataDir, PRIVATE_FOLDER_MODE);
    const tightened: string[] = [];
    tightenTree(dataDir, tightened);
    secured = { tightened: { folder: dataDir, entries: tightened.length } };
  }
  for (const name of subfolders) fs.mkdirSync(path.join(dataDir, name), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  return secured;
}

/** What a face says, once, when it tightened an older folder. */
export const tightenedNotice = ({ folder, entries }: NonNullable<SecuredFolder['tightened']>) =>
  `The data folder ${folder} was readable by other users (made by an older Imprint); it is now private to this user (folder 0700, ${entries} files and folders in it 0700/0600).`;

/**
 * Makes the SQLite database `file` private before SQLite opens it: created 0600 when missing,
 * tightened with its -wal and -shm files when not. SQLite gives a new -wal or -shm file the
 * database file's mode, so they are born private too.
 */
export function privateDatabaseFile(file: string): void {
  fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_WRONLY, PRIVATE_FILE_MODE));
  for (const each of [file, `${file}-wal`, `${file}-shm`]) {
    const stat = fs.lstatSync(each, { throwIfNoEntry: false });
    if (stat?.isFile() && loose(stat.mode)) fs.chmodSync(each, stat.mode & 0o700);
  }
}
