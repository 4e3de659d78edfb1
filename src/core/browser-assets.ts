/**
 * The browser pages' built files (the dev studio's, the dashboard's): made by the build
 * (scripts/browser-assets.js) into dist/browser/<name>/, so the installed package carries
 * them built and the libraries they are made of stay devDependencies.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ImprintError } from './errors.js';
import { packageRoot } from './package-root.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

export interface BrowserAsset {
  type: string;
  body: string;
}

export const browserAssetDir = (name: string) => path.join(packageRoot(), 'dist', 'browser', name);

/** Every built file of one page, by file name. */
export function readBrowserAssets(name: string): Map<string, BrowserAsset> {
  const dir = browserAssetDir(name);
  if (!fs.existsSync(dir)) {
    throw new ImprintError('INTERNAL', `The ${name} page's files are missing from ${dir}: in a checkout of Imprint, run \`npm run build\`; else reinstall imprint.`);
  }
  return new Map(
    fs.readdirSync(dir).map((file) => [file, { type: TYPES[path.extname(file)] ?? 'application/octet-stream', body: fs.readFileSync(path.join(dir, file), 'utf8') }]),
  );
}
