/**
 * Issue 5, isolation: what a template or a page can reach of the machine that renders it.
 * The service launches its own Chromium here, handed an environment full of secrets the way
 * `imprint serve` hands it the process's, so the test sees what the server strips. A secret
 * file made by the test must appear in no PDF; a canary on loopback must hear nothing from a
 * template; one team's render must leave nothing another team's can read.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pidtree from 'pidtree';
import { pdfText } from '../helpers/pdf.js';
import { startCanary, type Canary } from './helpers/canary.js';
import { describeReply, startTestService, fixtureArtifact, type Reply, type TestService } from './helpers/service.js';

const SECRET = `imprint-secret-${randomBytes(12).toString('hex')}`;
const SERVICE_SECRETS: Record<string, string> = {
  IMPRINT_API_KEY: `imp_${randomBytes(16).toString('hex')}`,
  AWS_SECRET_ACCESS_KEY: `aws-${randomBytes(16).toString('hex')}`,
  DATABASE_URL: `postgres://imprint:pw-${randomBytes(8).toString('hex')}@db.internal/imprint`,
  GITHUB_TOKEN: `ghp_${randomBytes(16).toString('hex')}`,
};

let service: TestService;
let canary: Canary;
let secretDir: string;
let secretPath: string;
const keys: Record<string, string> = {};

function expectPdf(reply: Reply): string {
  assert.equal(reply.status, 200, describeReply(reply));
  return pdfText(reply.body);
}

function assertNothingLeaked(text: string) {
  assert.doesNotMatch(text, new RegExp(SECRET), 'the secret file');
  assert.doesNotMatch(text, /root:x?:0:0/, '/etc/passwd');
  for (const [name, value] of Object.entries(SERVICE_SECRETS)) assert.ok(!text.includes(value), name);
  assert.ok(!text.includes(service.dataDir), 'the data folder');
}

/** The Chromium processes this test process started, with their environments. */
async function chromiumProcesses(): Promise<{ pid: number; main: boolean; env: string[] }[]> {
  const found: { pid: number; parent: number; typed: boolean; env: string[] }[] = [];
  for (const pid of await pidtree(process.pid)) {
    try {
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!/chrom/i.test(command.split('\0')[0])) continue;
      // The parent's pid: the field after the command name's closing parenthesis and the state.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      found.push({ pid, parent, typed: command.includes('--type='), env: fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean) });
    } catch (error) {
      // A process that ended between the listing and the read is no longer a witness.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
  // Helpers (zygote, renderers, GPU) carry --type=; the browser itself does not, and neither
  // does a helper the browser is starting (between fork and exec it still has the browser's
  // command line): the browser is the one whose parent is not Chromium.
  const pids = new Set(found.map(({ pid }) => pid));
  return found.map(({ pid, parent, typed, env }) => ({ pid, main: !typed && !pids.has(parent), env }));
}

before(async () => {
  secretDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-secret-'));
  secretPath = path.join(secretDir, 'secret.txt');
  fs.writeFileSync(secretPath, `${SECRET}\n`);
  canary = await startCanary();
  service = await startTestService({ env: SERVICE_SECRETS });
  keys.a = (await service.team('team-a')).key;
  keys.b = (await service.team('team-b')).key;
  for (const [id, file] of [
    ['snoop', 'Snoop.tsx'],
    ['memory', 'Memory.tsx'],
  ]) {
    const artifact = await fixtureArtifact(file);
    for (const key of [keys.a, keys.b]) {
      const published = await service.call('POST', '/api/templates', { key, body: { id, artifact } });
      assert.equal(published.status, 201, describeReply(published));
    }
  }
});

after(async () => {
  await service?.close();
  await canary?.close();
  fs.rmSync(secretDir, { recursive: true, force: true });
});

describe("Chromium's environment", () => {
  test("carries none of the service's secrets", async () => {
    const health = await service.call('GET', '/healthz'); // the browser runs from here on
    assert.equal(health.status, 200, describeReply(health));
    const processes = await chromiumProcesses();
    const main = processes.filter((p) => p.main);
    assert.equal(main.length, 1, `one browser process: ${JSON.stringify(processes.map((p) => p.pid))}`);
    assert.ok(main[0].env.some((entry) => entry.startsWith('PATH=')), 'its environment was read');
    for (const { pid, env } of processes) {
      const names = env.map((entry) => entry.slice(0, entry.indexOf('=')));
      for (const [name, value] of Object.entries(SERVICE_SECRETS)) {
        assert.ok(!names.includes(name), `pid ${pid} has ${name}`);
        assert.ok(!env.some((entry) => entry.includes(value)), `pid ${pid} carries the value of ${name}`);
      }
      assert.deepEqual(names.filter((name) => name.startsWith('IMPRINT_')), [], `pid ${pid}`);
    }
  });
});

describe('a template cannot read the server', () => {
  test("fetch, XHR, import and frames of file: URLs, the loopback canary: all refused; the PDF holds none of it", async () => {
    const text = expectPdf(await service.call('POST', '/api/documents/snoop', { key: keys.a, body: { props: { secretPath, canaryUrl: canary.url } } }));
    assert.match(text, /Snoop finished/, 'the template ran to its end');
    for (const label of ['fetch file', 'fetch passwd', 'fetch environ', 'xhr file', 'import file', 'fetch canary']) {
      assert.match(text, new RegExp(`${label}: refused`), label);
    }
    assert.match(text, /iframe file: (refused|read frame at about:blank)/, 'the frame stayed blank');
    assert.match(text, /process=undefined require=undefined/, 'no Node in the page');
    assert.match(text, /href=https:\/\/template\.imprint\.invalid\//, 'the page lives on the fake template origin, not on a file: URL');
    assertNothingLeaked(text);
    assert.deepEqual(canary.requests, [], 'no request reached the canary');
  });
});

describe('raw HTML cannot read the server', () => {
  const snoopHtml = () => `<!doctype html><html><body>
    <h1>HTML snoop</h1>
    <iframe src="file://${secretPath}" style="width:100%;height:120px"></iframe>
    <iframe src="file:///etc/passwd" style="width:100%;height:120px"></iframe>
    <object data="file://${secretPath}" width="400" height="80"></object>
    <embed src="file://${secretPath}" width="400" height="80">
    <img src="file://${secretPath}" alt="">
    <link rel="stylesheet" href="file://${secretPath}">
    <script src="file://${secretPath}"></script>
    <pre id="out"></pre>
    <script>
      const out = document.getElementById('out');
      const line = (text) => (out.textContent += text + '\\n');
      for (const url of ['file://${secretPath}', 'file:///etc/passwd', 'file:///proc/self/environ']) {
        try {
          const request = new XMLHttpRequest();
          request.open('GET', url, false);
          request.send();
          line('xhr read ' + request.responseText.slice(0, 300));
        } catch (error) {
          line('xhr refused ' + error.name);
        }
      }
      line('location ' + location.href + ' process=' + typeof process);
      line('HTML snoop finished');
    </script>
  </body></html>`;

  test('frames, objects, embeds, images, styles, scripts and XHR of file: URLs: none reaches the PDF', async () => {
    const text = expectPdf(await service.call('POST', '/api/generate', { key: keys.a, body: { html: snoopHtml() } }));
    assert.match(text, /HTML snoop finished/, 'the script ran to its end');
    assert.equal(text.match(/xhr refused/g)?.length, 3, text);
    assert.match(text, /process=undefined/);
    assertNothingLeaked(text);
  });
});

describe('teams never share a browser context', () => {
  const memory = (key: string, marker: string) => service.call('POST', '/api/documents/memory', { key, body: { props: { marker } } });

  test("what team A's renders leave (storage, cookies, module state) is not visible to team B", async () => {
    assert.match(expectPdf(await memory(keys.a, 'A-FIRST')), /Seen storage=\(none\)/);
    // The control: team A's own next render sees what its first one left, so the probe works.
    const again = expectPdf(await memory(keys.a, 'A-SECOND'));
    assert.match(again, /storage=A-FIRST/, again);
    const other = expectPdf(await memory(keys.b, 'B-FIRST'));
    assert.match(other, /Seen storage=\(none\) cookie=\(none\) module=\(none\)/, other);
    assert.doesNotMatch(other, /A-FIRST|A-SECOND/);
  });
});
