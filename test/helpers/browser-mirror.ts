/**
 * A loopback mirror of Chrome for Testing for `imprint browser install` (no internet here). It
 * serves Chrome Headless Shell's archive under the path @puppeteer/browsers asks for
 * (browser-data/chrome-headless-shell.js: <base>/<build>/<folder>/chrome-headless-shell-<folder>.zip),
 * written out here rather than taken from that library, so a change of layout fails the tests.
 *
 * The "browser" in the archive is a shell script that records each launch in a file and execs
 * this machine's Chromium, so what the install puts in place really renders, and a test can
 * tell that it was this browser that printed. Beside it, 3 MB of random bytes (which do not
 * compress) make a download that arrives in many chunks, so the progress has steps to report.
 *
 * Each base URL is one behaviour of the mirror: `ok` serves the archive, `missing` answers 404,
 * `garbage` serves bytes that are not a zip, `cut` closes the connection halfway, `other-zip`
 * serves a zip without the browser in it.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PUPPETEER_REVISIONS } from 'puppeteer-core/internal/revisions.js';
import yazl from 'yazl';

export const HEADLESS_SHELL_BUILD = PUPPETEER_REVISIONS['chrome-headless-shell'];
/** Chrome for Testing's name for this platform (Linux only: the tests run on Linux). */
export const PLATFORM_FOLDER = process.arch === 'arm64' ? 'linux-arm64' : 'linux64';
/** Where the archive unpacks in Puppeteer's cache, relative to the cache folder. */
export const INSTALLED_EXECUTABLE = path.join(
  'chrome-headless-shell',
  `${process.arch === 'arm64' ? 'linux_arm' : 'linux'}-${HEADLESS_SHELL_BUILD}`,
  `chrome-headless-shell-${PLATFORM_FOLDER}`,
  'chrome-headless-shell',
);
const ARCHIVE_PATH = `/${HEADLESS_SHELL_BUILD}/${PLATFORM_FOLDER}/chrome-headless-shell-${PLATFORM_FOLDER}.zip`;
const PADDING_BYTES = 3 * 1024 * 1024;

export type MirrorBehaviour = 'ok' | 'missing' | 'garbage' | 'cut' | 'other-zip';

export interface BrowserMirror {
  /** The base URL to give `--base-url` for a behaviour. */
  base(behaviour: MirrorBehaviour): string;
  /** The paths asked for, in order. */
  requests: string[];
  /** The file the installed browser appends a line to at each launch. */
  launches: string;
  archiveBytes: number;
  close(): Promise<void>;
}

/** The archive: `wrapper` as the browser's executable (none when undefined) and 3 MB beside it. */
function zipArchive(wrapper: string | undefined): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const folder = `chrome-headless-shell-${PLATFORM_FOLDER}`;
  if (wrapper !== undefined) zip.addBuffer(Buffer.from(wrapper), `${folder}/chrome-headless-shell`, { mode: 0o100755 });
  zip.addBuffer(randomBytes(PADDING_BYTES), `${folder}/resources.pak`, { mode: 0o100644, compress: false });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

function randomBytes(size: number): Buffer {
  const fd = fs.openSync('/dev/urandom', 'r');
  try {
    const buffer = Buffer.alloc(size);
    fs.readSync(fd, buffer, 0, size, 0);
    return buffer;
  } finally {
    fs.closeSync(fd);
  }
}

/** `chromium`: the browser the installed wrapper runs (IMPRINT_BROWSER, else Debian's). */
export async function startBrowserMirror(chromium = process.env.IMPRINT_BROWSER ?? '/usr/bin/chromium'): Promise<BrowserMirror> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-browser-mirror-'));
  const launches = path.join(dir, 'launches.log');
  const wrapper = [
    '#!/bin/sh',
    '# Stands in for Chrome Headless Shell: records the launch, then runs this machine\'s Chromium.',
    `echo launched >> '${launches}'`,
    `exec '${chromium}' "$@"`,
    '',
  ].join('\n');
  const archive = await zipArchive(wrapper);
  const otherZip = await zipArchive(undefined);
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname);
    const [, behaviour, ...rest] = url.pathname.split('/');
    if (`/${rest.join('/')}` !== ARCHIVE_PATH || behaviour === 'missing') return void response.writeHead(404).end('Not Found');
    if (behaviour === 'garbage') return void response.writeHead(200, { 'content-type': 'application/zip' }).end(randomBytes(64 * 1024));
    if (behaviour === 'other-zip') return void response.writeHead(200, { 'content-type': 'application/zip' }).end(otherZip);
    response.writeHead(200, { 'content-type': 'application/zip', 'content-length': archive.length });
    if (behaviour === 'cut') {
      response.write(archive.subarray(0, archive.length >> 1), () => response.destroy());
      return;
    }
    // In 64 KiB writes, as a file is streamed: the client sees the download arrive in steps.
    let offset = 0;
    const next = () => {
      while (offset < archive.length) {
        const chunk = archive.subarray(offset, (offset += 64 * 1024));
        if (!response.write(chunk)) return void response.once('drain', next);
      }
      response.end();
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: (behaviour) => `http://127.0.0.1:${port}/${behaviour}`,
    requests,
    launches,
    archiveBytes: archive.length,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
