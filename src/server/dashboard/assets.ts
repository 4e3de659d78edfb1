/**
 * The dashboard's browser app, built at pack time by scripts/build-dashboard.js into
 * dist/dashboard/: fingerprinted files (their names change with their bytes, so browsers may
 * keep them for good) and manifest.json naming the entry files. Read from disk once each.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ImprintError } from '../../core/errors.js';
import { packageRoot } from '../../core/package-root.js';

export interface DashboardManifest {
  js: string;
  css: string;
  worker: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
};
const ASSET_NAME = /^[A-Za-z0-9_.-]+$/;

export interface DashboardAssets {
  manifest(): DashboardManifest;
  file(name: string): { type: string; body: Buffer } | undefined;
}

/** pdf.js's worker: the studio's copy (scripts/build-dashboard.js), served under the manifest's fingerprinted name. */
const sharedWorker = () => path.join(packageRoot(), 'dist', 'browser', 'studio', 'pdf.worker.mjs');

export function dashboardAssets(dir = path.join(packageRoot(), 'dist', 'dashboard')): DashboardAssets {
  let manifest: DashboardManifest | undefined;
  const files = new Map<string, { type: string; body: Buffer }>();
  const assets: DashboardAssets = {
    manifest() {
      if (manifest) return manifest;
      try {
        manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as DashboardManifest;
      } catch (error) {
        throw new ImprintError('INTERNAL', `The dashboard's files are missing from ${dir}: build them with \`node scripts/build.js\` (or start the service with --no-dashboard).`, { cause: error });
      }
      return manifest;
    },
    file(name) {
      if (!ASSET_NAME.test(name) || name === 'manifest.json') return undefined;
      const cached = files.get(name);
      if (cached) return cached;
      const file = name === assets.manifest().worker ? sharedWorker() : path.join(dir, name);
      if (!fs.existsSync(file)) return undefined;
      const asset = { type: TYPES[path.extname(name)] ?? 'application/octet-stream', body: fs.readFileSync(file) };
      files.set(name, asset);
      return asset;
    },
  };
  return assets;
}

/** The one HTML page: the app fills it. Nothing in it comes from a request or the store. */
export function dashboardPage(manifest: DashboardManifest): string {
  const asset = (name: string) => `/dashboard/assets/${name}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Imprint dashboard</title>
<meta name="imprint-pdf-worker" content="${asset(manifest.worker)}">
<link rel="stylesheet" href="${asset(manifest.css)}">
</head><body><div id="app"></div><noscript>The Imprint dashboard needs JavaScript.</noscript>
<script type="module" src="${asset(manifest.js)}"></script></body></html>`;
}
