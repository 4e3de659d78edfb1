/**
 * Faults (issue 5): Chromium is killed in the middle of a render (SIGKILL to the real browser
 * process, as the OOM killer would). The request in flight answers 500 with an error object
 * within a few seconds, stores and counts nothing; /healthz and the next render find a new
 * browser; the killed browser's processes are all gone (none left a zombie) and its profile
 * folder is removed.
 *
 * The service is `imprint serve` as a child process (the built CLI) with a TMPDIR of its own,
 * so the folders its browsers leave there can be counted exactly. The render in flight waits
 * on an image from a loopback server that never answers: its request arriving there is the
 * moment the render is known to be under way.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { isPdf, pdfText } from '../helpers/pdf.js';
import {
  alive,
  browsersUnder,
  callService,
  chromiumUnder,
  dataDirWithTeam,
  eventually,
  procInfo,
  profileDirs,
  startTicks,
  startServeProcess,
  stopServe,
  type ProcInfo,
  type ServeProcess,
} from './helpers/faults.js';
import { describeReply, type Reply } from './helpers/service.js';

/**
 * The service's render deadline (`imprint serve`'s default): an answer before it, and a 500
 * rather than its 504, is the crash ending the render, not the deadline.
 */
const RENDER_DEADLINE_MS = 30_000;

let serve: ServeProcess;
let key: string;
let stall: http.Server;
let stallUrl: string;
const stallSockets = new Set<Socket>();
let onStalledRequest: (() => void) | undefined;
/** The killed browser's processes, for the checks after it. */
let killedTree: ProcInfo[] = [];

const call = (method: string, urlPath: string, body?: unknown) => callService(serve.url, method, urlPath, { key, body });
const used = async () => (await call('GET', '/api/me')).json().team.usedThisMonth as number;

function expectPdf(reply: Reply, text: RegExp) {
  assert.equal(reply.status, 200, describeReply(reply));
  assert.equal(reply.headers['content-type'], 'application/pdf');
  assert.ok(isPdf(reply.body));
  assert.match(pdfText(reply.body), text);
}

before(async () => {
  // Accepts the image request and never answers it.
  stall = http.createServer(() => onStalledRequest?.());
  stall.on('connection', (socket) => {
    stallSockets.add(socket);
    socket.on('close', () => stallSockets.delete(socket));
  });
  await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve));
  stallUrl = `http://127.0.0.1:${(stall.address() as AddressInfo).port}`;

  const folder = await dataDirWithTeam('acme');
  key = folder.key;
  // The page's image is on loopback: the operator lets renders reach it.
  serve = await startServeProcess({ dataDir: folder.dataDir, args: ['--allow-host', '127.0.0.1'] });
});

after(async () => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) await stopServe(serve);
  for (const dir of [serve?.dataDir, serve?.tmpDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  for (const socket of stallSockets) socket.destroy();
  await new Promise((resolve) => stall?.close(resolve));
});

test('Chromium SIGKILLed mid-render: 500 with an error object at once, nothing stored or counted; /healthz and the next render use a new browser', async (t) => {
  expectPdf(await call('POST', '/api/generate', { html: '<h1>Before the crash</h1>' }), /Before the crash/);
  const [browser, ...others] = await browsersUnder(serve.child.pid!);
  assert.ok(browser && others.length === 0, `one browser runs under the service: ${JSON.stringify([browser, ...others])}`);
  killedTree = await chromiumUnder(serve.child.pid!);
  const killedStartTicks = startTicks(browser.pid)!;
  assert.equal(profileDirs(serve.tmpDir).length, 1, `the running browser's profile: ${fs.readdirSync(serve.tmpDir).join(', ')}`);
  const usedBefore = await used();
  const filesBefore = fs.readdirSync(path.join(serve.dataDir, 'files'));

  const reached = new Promise<void>((resolve) => (onStalledRequest = resolve));
  const inFlight = call('POST', '/api/generate', { html: `<h1>Doomed</h1><img src="${stallUrl}/never.png">`, format: 'json' });
  await reached;
  onStalledRequest = undefined;
  const killedAt = performance.now();
  process.kill(browser.pid, 'SIGKILL');
  const reply = await inFlight;
  const ms = performance.now() - killedAt;
  t.diagnostic(`in-flight request answered ${reply.status} ${Math.round(ms)} ms after the kill`);

  assert.equal(reply.status, 500, describeReply(reply));
  assert.match(String(reply.headers['content-type']), /^application\/json/);
  const body = reply.json();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'requestId'], describeReply(reply));
  assert.equal(body.code, 'INTERNAL');
  assert.equal(typeof body.error, 'string');
  assert.doesNotMatch(body.error, /\n\s+at /, 'no stack trace is sent');
  assert.ok(ms < RENDER_DEADLINE_MS, `answered ${Math.round(ms)} ms after the kill, not before the render deadline`);
  assert.equal(await used(), usedBefore, 'the failed render is not counted');
  assert.deepEqual(fs.readdirSync(path.join(serve.dataDir, 'files')), filesBefore, 'no PDF was stored for it');

  const health = await callService(serve.url, 'GET', '/healthz');
  assert.equal(health.status, 200, describeReply(health));
  assert.deepEqual({ ...health.json<object>(), version: undefined }, { status: 'ok', service: 'ok', browser: 'ok', storage: 'ok', version: undefined });

  const startedNext = performance.now();
  expectPdf(await call('POST', '/api/generate', { html: '<h1>After the crash</h1>' }), /After the crash/);
  t.diagnostic(`next render: 200 in ${Math.round(performance.now() - startedNext)} ms`);
  assert.equal(await used(), usedBefore + 1);
  // The render above was served by a browser started after the kill: the killed one is gone,
  // exactly one browser runs under the service, and it was born after the killed one.
  assert.ok(await eventually(() => !alive(browser.pid), 10_000), `the killed browser ${browser.pid} is gone`);
  const replacements = await browsersUnder(serve.child.pid!);
  assert.equal(replacements.length, 1, `one browser runs under the service after the crash: ${JSON.stringify(replacements)}`);
  const [replacement] = replacements;
  assert.notEqual(replacement!.pid, browser.pid, 'the browser that rendered is not the killed one');
  assert.ok(startTicks(replacement!.pid)! > killedStartTicks, `the browser ${replacement!.pid} started after the killed one ${browser.pid}`);
  // And it is the one serving renders: another render leaves it the only browser, still running.
  expectPdf(await call('POST', '/api/generate', { html: '<h1>Still the new one</h1>' }), /Still the new one/);
  assert.deepEqual((await browsersUnder(serve.child.pid!)).map((info) => info.pid), [replacement!.pid]);
  t.diagnostic(`killed browser ${browser.pid}; the next renders were served by browser ${replacement!.pid}`);
});

test('the killed browser leaves no process, no zombie and no profile folder', async (t) => {
  assert.ok(killedTree.length > 1, 'the previous test recorded the killed browser and its children');
  const leftovers = () => killedTree.map((proc) => procInfo(proc.pid)).filter((info): info is ProcInfo => info !== undefined && info.comm === killedTree.find((p) => p.pid === info.pid)!.comm);
  // Orphaned children are reaped by whoever adopts them (the machine's init): give it a moment.
  const gone = await eventually(() => leftovers().length === 0, 10_000);
  assert.ok(gone, `processes of the killed browser remain: ${leftovers().map((p) => `${p.pid} ${p.state} ppid=${p.ppid} ${p.comm}`).join('; ')}`);
  const zombiesUnderService = async () => (await chromiumUnder(serve.child.pid!)).filter((info) => info.state === 'Z');
  assert.ok(await eventually(async () => (await zombiesUnderService()).length === 0, 5000), `zombies under the service: ${JSON.stringify(await zombiesUnderService())}`);
  assert.ok(await eventually(() => profileDirs(serve.tmpDir).length === 1, 5000), `only the new browser's profile is left: ${profileDirs(serve.tmpDir).join(', ')}`);
  t.diagnostic(`${killedTree.length} processes of the killed browser gone; profile folders in TMPDIR: ${profileDirs(serve.tmpDir).length} (the new browser's)`);
});

test('on SIGTERM afterwards the service exits 0 and takes its browser and profile folder with it', async (t) => {
  const running = await chromiumUnder(serve.child.pid!);
  assert.ok(running.length > 0);
  const stopped = await stopServe(serve);
  assert.deepEqual({ code: stopped.code, signal: stopped.signal }, { code: 0, signal: null }, serve.output());
  assert.ok(await eventually(() => running.every((proc) => !alive(proc.pid)), 10_000), 'every Chromium process of the service exited');
  assert.deepEqual(profileDirs(serve.tmpDir), [], 'no profile folder is left');
  t.diagnostic(`exit 0 in ${Math.round(stopped.ms)} ms; profile folders left: 0`);
});

test('nothing of the killed browser is left in TMPDIR once the service has stopped', () => {
  // Chromium's own temporary folder (org.chromium.Chromium.*) lives inside its profile folder
  // (chromium-process.ts), so a killed browser leaves nothing behind it either.
  assert.deepEqual(fs.readdirSync(serve.tmpDir), [], 'TMPDIR is empty');
});
