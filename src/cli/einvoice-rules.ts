/**
 * Where the official e-invoice artefacts (rules/einvoice: schemas and compiled Schematron) are
 * read from. A checkout reads the folder itself. The npm package carries them compressed (Brotli), file by
 * file (dist/einvoice-rules/**.br, scripts/build.js --package): 11 MB of XML that compresses to
 * under 1 MB on every user's disk. xmllint and Saxon read plain files that import each other by
 * relative path, so the first `check --einvoice` unpacks them once into a per-version folder of
 * the user's cache; a folder is complete only once renamed into place.
 */
import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import envPaths from 'env-paths';
import { ImprintError } from '../core/errors.js';
import { packageRoot } from '../core/package-root.js';
import { ensurePrivateDir } from './io/private-dir.js';
import { imprintVersion } from '../core/version.js';

const MAX_RULES_FILE_BYTES = 64 * 1024 * 1024;

function unpack(from: string, to: string): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) {
      fs.mkdirSync(path.join(to, entry.name), { recursive: true });
      unpack(source, path.join(to, entry.name));
    } else if (entry.name.endsWith('.br')) {
      // Imprint's own files, but every inflate has a ceiling (the largest is 2.4 MB).
      fs.writeFileSync(path.join(to, entry.name.slice(0, -3)), brotliDecompressSync(fs.readFileSync(source), { maxOutputLength: MAX_RULES_FILE_BYTES }));
    }
  }
}

/**
 * The folder of plain artefacts: the checkout's own, or the package's unpacked into `cacheDir`.
 * The rules' XSLT runs as this user and decides what is "Valid", so the cache folder must be
 * this user's alone (io/private-dir.ts): one another user could write (a cache set to a shared
 * place) is made anew, and one that is a symbolic link or another user's is refused, nothing
 * unpacked through it (issue 41, case 6).
 */
export function einvoiceRulesDir(cacheDir = envPaths('imprint', { suffix: '' }).cache): string {
  const root = packageRoot();
  const plain = path.join(root, 'rules', 'einvoice');
  if (fs.existsSync(plain)) return plain;
  const packed = path.join(root, 'dist', 'einvoice-rules');
  const target = path.join(cacheDir, `einvoice-rules-${imprintVersion()}`);
  if (!fs.existsSync(packed)) return target;
  ensurePrivateDir(
    cacheDir,
    (why) =>
      new ImprintError(
        'USAGE',
        `Imprint's cache folder ${cacheDir} ${why}, so the e-invoice rules are not unpacked into it or read from it (another user could plant rules that call a broken invoice valid). Remove it, or set XDG_CACHE_HOME to a folder of your own.`,
      ),
  );
  // Inside a folder only this user can write, what stands at the name is this user's doing; a
  // folder is used as it is, anything else (a link, a file) is replaced.
  const stat = fs.lstatSync(target, { throwIfNoEntry: false });
  if (stat?.isDirectory()) return target;
  if (stat) fs.rmSync(target, { force: true });
  const temp = `${target}.${process.pid}.tmp`;
  fs.rmSync(temp, { recursive: true, force: true });
  fs.mkdirSync(temp, { recursive: true });
  unpack(packed, temp);
  try {
    fs.renameSync(temp, target);
  } catch (error) {
    // Another process unpacked the same version first: theirs is as good.
    fs.rmSync(temp, { recursive: true, force: true });
    if (!fs.lstatSync(target, { throwIfNoEntry: false })?.isDirectory()) throw error;
  }
  return target;
}
