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
import { packageRoot } from '../core/package-root.js';
import { imprintVersion } from '../core/version.js';

function unpack(from: string, to: string): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) {
      fs.mkdirSync(path.join(to, entry.name), { recursive: true });
      unpack(source, path.join(to, entry.name));
    } else if (entry.name.endsWith('.br')) {
      fs.writeFileSync(path.join(to, entry.name.slice(0, -3)), brotliDecompressSync(fs.readFileSync(source)));
    }
  }
}

/** The folder of plain artefacts: the checkout's own, or the package's unpacked into `cacheDir`. */
export function einvoiceRulesDir(cacheDir = envPaths('imprint', { suffix: '' }).cache): string {
  const root = packageRoot();
  const plain = path.join(root, 'rules', 'einvoice');
  if (fs.existsSync(plain)) return plain;
  const packed = path.join(root, 'dist', 'einvoice-rules');
  const target = path.join(cacheDir, `einvoice-rules-${imprintVersion()}`);
  if (fs.existsSync(target) || !fs.existsSync(packed)) return target;
  const temp = `${target}.${process.pid}.tmp`;
  fs.rmSync(temp, { recursive: true, force: true });
  fs.mkdirSync(temp, { recursive: true });
  unpack(packed, temp);
  try {
    fs.renameSync(temp, target);
  } catch (error) {
    // Another process unpacked the same version first: theirs is as good.
    fs.rmSync(temp, { recursive: true, force: true });
    if (!fs.existsSync(target)) throw error;
  }
  return target;
}
