/**
 * `imprint generate` end to end: raw HTML, a web page served by a real HTTP server on
 * 127.0.0.1 (a local server: --allow-local), and HTML injected into that page so its relative
 * links resolve against it. Without --allow-local the CLI refuses local addresses and files,
 * as the service does, before starting a browser.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { cliWithDataDir, tempDir } from '../helpers/cli.js';
import { pdfInfo, pdfText, sizeMatches } from '../helpers/pdf.js';

const PAGES: Record<string, { type: string; body: string }> = {
  '/site/page.html': { type: 'text/html', body: '<html><head><title>Site</title></head><body><h1>Original site content</h1></body></html>' },
  '/site/style.css': { type: 'text/css', body: '.from-site::after { content: "styled-by-site"; }' },
};

describe('imprint generate', () => {
  const cli = cliWithDataDir();
  const dir = tempDir();
  const requested: string[] = [];
  let server: http.Server;
  let base: string;

  before(async () => {
    server = http.createServer((req, res) => {
      requested.push(req.url ?? '');
      const page = PAGES[req.url ?? ''];
      res.writeHead(page ? 200 : 404, { 'content-type': page?.type ?? 'text/plain' });
      res.end(page?.body ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  test('--html file: that HTML, A4 portrait by default', async () => {
    const file = path.join(dir, 'page.html');
    fs.writeFileSync(file, '<h1>Quarterly numbers</h1><p>Revenue grew.</p>');
    const out = path.join(dir, 'page.pdf');
    const result = await cli.run(['generate', '--html', file, '-o', out]);
    assert.equal(result.code, 0, result.describe());
    const info = pdfInfo(out);
    assert.equal(info.pages, 1);
    assert.ok(sizeMatches(info, 595, 842), `${info.widthPt} x ${info.heightPt}`);
    assert.match(pdfText(out), /Quarterly numbers[\s\S]*Revenue grew\./);
  });

  test('--html - reads stdin; --format base64 prints {"data"}', async () => {
    const result = await cli.run(['generate', '--html', '-', '--format', 'base64'], { stdin: '<p>from standard input</p>' });
    assert.equal(result.code, 0, result.describe());
    const { data } = JSON.parse(result.stdout.toString());
    assert.match(pdfText(Buffer.from(data, 'base64')), /from standard input/);
  });

  test('--url only: that page', async () => {
    const result = await cli.run(['generate', '--url', `${base}/site/page.html`, '--allow-local']);
    assert.equal(result.code, 0, result.describe());
    assert.match(pdfText(result.stdout), /Original site content/);
  });

  test('--url with --html: the HTML replaces the page, relative links resolve against the url', async () => {
    const snippet = path.join(dir, 'snippet.html');
    fs.writeFileSync(snippet, '<link rel="stylesheet" href="style.css"><p class="from-site">Injected snippet </p>');
    requested.length = 0;
    const result = await cli.run(['generate', '--url', `${base}/site/page.html`, '--allow-local', '--html', snippet, '--size', 'letter', '--orientation', 'landscape']);
    assert.equal(result.code, 0, result.describe());
    const text = pdfText(result.stdout);
    assert.match(text, /Injected snippet/);
    assert.match(text, /styled-by-site/, 'the relative stylesheet was loaded from the url');
    assert.doesNotMatch(text, /Original site content/);
    assert.ok(requested.includes('/site/style.css'), `requests: ${requested.join(', ')}`);
    assert.ok(sizeMatches(pdfInfo(result.stdout), 792, 612), 'letter landscape');
  });

  test('a url that answers 404 fails with exit 1 and says so', async () => {
    const result = await cli.run(['generate', '--url', `${base}/missing`, '--allow-local']);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /answered HTTP 404/);
    assert.equal(result.stdout.length, 0);
  });

  test('without --allow-local a local server is refused: exit 1, a clear message, no request made', async () => {
    requested.length = 0;
    for (const url of [`${base}/site/page.html`, `http://localhost:${new URL(base).port}/site/page.html`]) {
      const result = await cli.run(['generate', '--url', url, '-o', path.join(dir, 'refused.pdf')]);
      assert.equal(result.code, 1, result.describe());
      assert.match(result.stderr, /Refusing to render http:\/\/.*loopback.*pass --allow-local/);
      assert.equal(result.stdout.length, 0);
    }
    assert.deepEqual(requested, [], 'the page was never requested');
    assert.ok(!fs.existsSync(path.join(dir, 'refused.pdf')), 'nothing written');
  });

  test('a local file needs --allow-local too', async () => {
    const file = path.join(dir, 'local.html');
    fs.writeFileSync(file, '<h1>From a local file</h1>');
    const refused = await cli.run(['generate', '--url', pathToFileURL(file).href]);
    assert.equal(refused.code, 1, refused.describe());
    assert.match(refused.stderr, /local files are rendered only when you pass --allow-local/);
    const allowed = await cli.run(['generate', '--url', pathToFileURL(file).href, '--allow-local']);
    assert.equal(allowed.code, 0, allowed.describe());
    assert.match(pdfText(allowed.stdout), /From a local file/);
  });

  test('cloud metadata is refused even with --allow-local', async () => {
    const result = await cli.run(['generate', '--url', 'http://169.254.169.254/latest/meta-data/', '--allow-local']);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /never renders this address/);
  });
});
