/**
 * Faults (issue 5): the disk fills up. The service's data folder is a small tmpfs of its own
 * (mounted here), filled by a filler file down to a chosen number of free bytes. Where mounting
 * is not allowed (a developer's machine, no root) the tests are skipped, saying why; in CI
 * (CI set) they must run, so a failed mount fails them there instead.
 *
 * What the service does then, and what these tests hold it to:
 * - the request answers 507 Insufficient Storage with an error object that says the service is
 *   out of disk space (src/server/http/errors.ts: a server error to any Part A client, but one that
 *   says a retry later can work and that the request was not at fault);
 * - nothing of it is left on disk: no PDF or artifact (whole or cut short), no temp file, no
 *   row; and no generation is counted (GET /api/me);
 * - /healthz reports the full disk (503, "disk full: ...") while it lasts;
 * - once the filler is gone, the same request succeeds.
 *
 * Where room is left but less than the PDF or artifact needs, the file system takes a prefix
 * and only the next write fails: before the fix a truncated file was renamed into place (and,
 * for a `json` result, counted; for a publish, answered 201 over a damaged artifact).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Artifact } from '../../src/core/artifact.js';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { createNetPolicy } from '../../src/core/net/address-policy.js';
import { openStore, type Store } from '../../src/core/store/index.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { INPUTS } from '../helpers/cli.js';
import { isPdf, pdfText } from '../helpers/pdf.js';
import { callService } from './helpers/faults.js';
import { CHROMIUM_SEARCH, describeReply, searchChromium, type Reply } from './helpers/service.js';

const PAGE = 4096;
/** Room left for the database's own writes, but less than the PDF (~280 KB) or the artifact (~600 KB) needs. */
const SOME_ROOM = 128 * 1024;

let mountPoint: string | undefined;
let skipReason: string | undefined;
let browsers: ReturnType<typeof searchChromium> | undefined;
let server: RunningServer | undefined;
let operator: Store | undefined;
let key: string;
let picture: Artifact;
/** A 300x300 BMP of random pixels as a data: URL: it does not compress, so the PDF is ~280 KB. */
let noise: string;

const dataDir = () => mountPoint!;
const filler = () => path.join(dataDir(), 'filler');
const call = (method: string, urlPath: string, body?: unknown) => callService(server!.url, method, urlPath, { key, body });
const used = async () => (await call('GET', '/api/me')).json().team.usedThisMonth as number;

function freeBytes(): number {
  const stats = fs.statfsSync(dataDir());
  return stats.bavail * stats.bsize;
}

/** Fills the data folder's disk with the filler file, then gives back exactly `leave` bytes. */
function fillDisk(leave: number) {
  const fd = fs.openSync(filler(), 'a');
  try {
    // Large chunks first, then single pages, so the filler ends on a page boundary.
    for (const size of [256 * 1024, PAGE]) {
      const chunk = Buffer.alloc(size, 0x5a);
      for (;;) {
        try {
          if (fs.writeSync(fd, chunk) < size) break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  fs.truncateSync(filler(), fs.statSync(filler()).size - leave);
  assert.equal(freeBytes(), leave, 'the filler leaves exactly the room asked for');
}

const emptyDisk = () => fs.rmSync(filler(), { force: true });

/** Every entry of a data subfolder, temp files (.tmp-*) included. */
const entries = (sub: string) => fs.readdirSync(path.join(dataDir(), sub)).sort();

function bmpNoise(width: number, height: number): Buffer {
  const row = Math.ceil((width * 3) / 4) * 4;
  const bmp = Buffer.alloc(54 + row * height);
  bmp.write('BM');
  bmp.writeUInt32LE(bmp.length, 2);
  bmp.writeUInt32LE(54, 10);
  bmp.writeUInt32LE(40, 14);
  bmp.writeInt32LE(width, 18);
  bmp.writeInt32LE(height, 22);
  bmp.writeUInt16LE(1, 26);
  bmp.writeUInt16LE(24, 28);
  bmp.writeUInt32LE(row * height, 34);
  randomBytes(row * height).copy(bmp, 54);
  return bmp;
}

function expectStorageFull(reply: Reply) {
  assert.equal(reply.status, 507, describeReply(reply));
  assert.match(String(reply.headers['content-type']), /^application\/json/);
  const body = reply.json();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'requestId'], describeReply(reply));
  assert.equal(body.code, 'STORAGE_FULL');
  assert.match(body.error, /out of disk space/);
  assert.doesNotMatch(body.error, new RegExp(dataDir().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the data folder stays in the log');
}

async function expectHealthReportsFullDisk() {
  const health = await callService(server!.url, 'GET', '/healthz');
  assert.equal(health.status, 503, describeReply(health));
  const body = health.json();
  assert.equal(body.status, 'unavailable');
  assert.match(body.service, /^disk full: /);
  assert.equal(body.browser, 'ok');
  assert.match(body.error, /disk/);
}

async function expectHealthy() {
  const health = await callService(server!.url, 'GET', '/healthz');
  assert.equal(health.status, 200, describeReply(health));
  assert.equal(health.json().service, 'ok');
}

async function download(url: string): Promise<Buffer> {
  assert.ok(url.startsWith(`${server!.url}/api/files/`), url);
  const reply = await callService(server!.url, 'GET', new URL(url).pathname);
  assert.equal(reply.status, 200, describeReply(reply));
  assert.ok(isPdf(reply.body));
  return reply.body;
}

/**
 * In CI (which runs as root, so it can mount) the disk-full tests are required: a CI machine
 * that cannot mount fails them rather than skipping the whole file unseen.
 */
function mustRun(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/** Skips the test, saying why, where no tmpfs could be mounted. */
function mounted(t: TestContext): boolean {
  if (skipReason) t.skip(skipReason);
  return !skipReason;
}

before(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-diskfull-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', dir], { stdio: 'pipe' });
    mountPoint = dir;
  } catch (error) {
    fs.rmdirSync(dir);
    const why = `cannot mount a tmpfs to fill up (needs root or CAP_SYS_ADMIN): ${String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()}`;
    if (mustRun()) throw new Error(`${why}. In CI (CI=${process.env.CI ?? ''}, uid ${process.getuid?.()}) these tests must run.`, { cause: error });
    skipReason = why;
    return;
  }
  operator = openStore({ dataDir: dataDir() });
  await operator.createTeam('acme');
  key = (await operator.createApiKey('acme')).key;
  browsers = searchChromium();
  server = await startServer(
    {
      dataDir: dataDir(),
      port: 0,
      host: '127.0.0.1',
      urlTtlMs: 3_600_000,
      renderTimeoutMs: 30_000,
      version: 'test',
      browser: { search: CHROMIUM_SEARCH, env: {}, runningAsRoot: process.getuid?.() === 0 },
      logger: false,
      netPolicy: createNetPolicy(),
    },
    { browsers },
  );
  picture = (await bundleTemplate(path.join(INPUTS, 'test', 'contract', 'helpers', 'fault-templates', 'Picture.tsx'))).artifact;
  noise = `data:image/bmp;base64,${bmpNoise(300, 300).toString('base64')}`;
  const published = await call('POST', '/api/templates', { id: 'picture', artifact: picture });
  assert.equal(published.status, 201, describeReply(published));
});

after(async () => {
  if (mountPoint && fs.existsSync(filler())) emptyDisk();
  await server?.close();
  await operator?.close();
  await browsers?.close();
  if (mountPoint) {
    execFileSync('umount', [mountPoint]);
    fs.rmdirSync(mountPoint);
  }
});

describe('the data folder\'s disk fills up', () => {
  test('a `json` result whose PDF does not fit (A1 and A2): 507, no file, not counted; with room again the same requests succeed', async (t) => {
    if (!mounted(t)) return;
    const document = { props: { caption: 'Noise for the record', src: noise }, format: 'json' };
    const html = { html: `<h1>Generated noise</h1><img src="${noise}">`, format: 'json' };
    const pdfBytes = Buffer.from((await call('POST', '/api/documents/picture', { ...document, format: 'base64' })).json().data, 'base64').length;
    assert.ok(pdfBytes > SOME_ROOM * 1.5, `the PDF (${pdfBytes} bytes) is well past the room left (${SOME_ROOM})`);
    const files = entries('files');
    const before = await used();

    fillDisk(SOME_ROOM);
    try {
      await expectHealthReportsFullDisk();
      const started = performance.now();
      expectStorageFull(await call('POST', '/api/documents/picture', document));
      t.diagnostic(`A1 json: 507 after ${Math.round(performance.now() - started)} ms (PDF ${pdfBytes} bytes, ${SOME_ROOM} bytes free)`);
      expectStorageFull(await call('POST', '/api/generate', html));
      assert.deepEqual(entries('files'), files, 'no PDF, whole or cut short, and no temp file was left in files/');
      assert.equal(await used(), before, 'a request that failed is not counted');
    } finally {
      emptyDisk();
    }

    await expectHealthy();
    const linked = await call('POST', '/api/documents/picture', document);
    assert.equal(linked.status, 200, describeReply(linked));
    assert.match(pdfText(await download(linked.json().url)), /Noise for the record/);
    const generated = await call('POST', '/api/generate', html);
    assert.equal(generated.status, 200, describeReply(generated));
    assert.match(pdfText(await download(generated.json().url)), /Generated noise/);
    assert.equal(await used(), before + 2);
    assert.equal(entries('files').length, files.length + 2);
    assert.ok(!entries('files').some((name) => name.startsWith('.')), `no temp files: ${entries('files').join(', ')}`);
  });

  test('a template whose artifact does not fit (publish): 507, no artifact or temp file, not listed; with room again it publishes', async (t) => {
    if (!mounted(t)) return;
    const artifacts = entries('artifacts');
    // Another bundle than the one published before (different bytes, so a new file would be written).
    const other = { ...picture, css: `${picture.css}\n/* another version */` };

    fillDisk(SOME_ROOM);
    try {
      await expectHealthReportsFullDisk();
      const started = performance.now();
      expectStorageFull(await call('POST', '/api/templates', { id: 'picture-two', artifact: other }));
      t.diagnostic(`publish: 507 after ${Math.round(performance.now() - started)} ms (artifact ~${JSON.stringify(other).length} bytes, ${SOME_ROOM} bytes free)`);
      assert.deepEqual(entries('artifacts'), artifacts, 'no artifact, whole or cut short, and no temp file was left in artifacts/');
      assert.equal(freeBytes(), SOME_ROOM, 'the room is as it was: nothing of the failed publish takes space');
      const listed = (await call('GET', '/api/templates')).json().templates.map((entry: { id: string }) => entry.id);
      assert.deepEqual(listed, ['picture'], 'the template was not published');
      assert.equal((await call('GET', '/api/templates/picture-two')).status, 404);
    } finally {
      emptyDisk();
    }

    const published = await call('POST', '/api/templates', { id: 'picture-two', artifact: other });
    assert.equal(published.status, 201, describeReply(published));
    assert.equal(published.json().version, 1);
    const rendered = await call('POST', '/api/documents/picture-two', { props: { caption: 'Published after all', src: noise } });
    assert.equal(rendered.status, 200, describeReply(rendered));
    assert.match(pdfText(rendered.body), /Published after all/);
  });

  test('no room at all: even a `pdf` result answers 507 (its usage count cannot be written) and counts nothing; then it renders', async (t) => {
    if (!mounted(t)) return;
    const before = await used();
    fillDisk(0);
    try {
      await expectHealthReportsFullDisk();
      expectStorageFull(await call('POST', '/api/generate', { html: '<h1>Small</h1>' }));
      expectStorageFull(await call('POST', '/api/documents/picture', { props: { caption: 'Small', src: noise }, format: 'base64' }));
      assert.equal(await used(), before, 'reading the usage still works, and nothing was counted');
    } finally {
      emptyDisk();
    }
    const rendered = await call('POST', '/api/generate', { html: '<h1>Small after all</h1>' });
    assert.equal(rendered.status, 200, describeReply(rendered));
    assert.match(pdfText(rendered.body), /Small after all/);
    assert.equal(await used(), before + 1);
  });

  test('a download whose database row does not fit after its PDF did: the PDF is removed again (store level)', async (t) => {
    if (!mounted(t)) return;
    // The store of the same folder, as the server uses it: the file is written first, then the
    // row. Room for exactly the PDF's pages leaves none for the row (the WAL must grow).
    const team = (await operator!.getTeam('acme'))!;
    const pdf = randomBytes(20 * PAGE - 100);
    const files = entries('files');
    fillDisk(20 * PAGE);
    try {
      await assert.rejects(
        () => operator!.issueFile(team.id, pdf, 60_000),
        (error: Error) => /No space left to write to the Imprint database/.test(error.message),
      );
      assert.deepEqual(entries('files'), files, 'the PDF whose row could not be written is gone, and no temp file');
    } finally {
      emptyDisk();
    }
    const issued = await operator!.issueFile(team.id, pdf, 60_000);
    assert.deepEqual(fs.readFileSync(issued.path!), pdf);
  });
});
