/**
 * Packs a template's static/ folder into the artifact, so `/static/logo.png` in the template
 * is answered from memory at render time: the artifact renders with no access to the
 * author's disk and no network.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ArtifactAsset } from '../artifact.js';
import { ImprintError } from '../errors.js';

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif',
  '.svg': 'image/svg+xml', '.webp': 'image/webp', '.avif': 'image/avif', '.ico': 'image/x-icon',
  '.woff': 'font/woff', '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.otf': 'font/otf',
  '.css': 'text/css', '.js': 'text/javascript', '.json': 'application/json', '.txt': 'text/plain',
  '.html': 'text/html',
};

export const contentTypeFor = (file: string) => CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

/** An artifact is uploaded and held in memory whole: a static folder past this is a mistake. */
export const MAX_STATIC_BYTES = 25 * 1024 * 1024;

export function packStaticFolder(staticDir: string | undefined): Record<string, ArtifactAsset> {
  const assets: Record<string, ArtifactAsset> = {};
  if (!staticDir) return assets;
  let total = 0;
  for (const entry of fs.readdirSync(staticDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = fs.readFileSync(file);
    total += bytes.length;
    if (total > MAX_STATIC_BYTES) {
      throw new ImprintError('BUILD_FAILED', `The static folder ${staticDir} holds more than ${MAX_STATIC_BYTES / 1024 / 1024} MiB. Keep only the files the template uses there.`);
    }
    const urlPath = '/static/' + path.relative(staticDir, file).split(path.sep).map(encodeURIComponent).join('/');
    assets[urlPath] = { contentType: contentTypeFor(file), base64: bytes.toString('base64') };
  }
  return assets;
}
