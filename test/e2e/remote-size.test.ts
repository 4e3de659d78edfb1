/**
 * Remote mode sends the page size as the user wrote it ("100mm 150mm", "letter"), not a size
 * re-printed from points: the CLI talks to a real `imprint serve` child process through a
 * recording relay on 127.0.0.1 that passes every request on unchanged and keeps the bodies, and
 * the PDFs the service prints come back with the page box asked for.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { request } from 'undici';
import { cliWithDataDir, EXAMPLES, runCli, tempDir } from '../helpers/cli.js';
import { pdfInfo, pdfText, sizeMatches } from '../helpers/pdf.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const operator = cliWithDataDir(tempDir('imprint-serve-'));
const dir = tempDir('imprint-remote-size-');
let serve: ServeProcess;
let relay: http.Server;
let relayUrl: string;
let key: string;
/** The JSON bodies the CLI sent, by path. */
const sent: { path: string; body: Record<string, unknown> }[] = [];

before(async () => {
  assert.equal((await operator.run(['team', 'create', 'acme'])).code, 0);
  const created = await operator.run(['key', 'create', '--team', 'acme']);
  assert.equal(created.code, 0, created.describe());
  key = created.stdout.toString().trim();
  serve = await startServeProcess({ dataDir: operator.dataDir });
  relay = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (req.headers['content-type']?.startsWith('application/json') && body.length > 0) sent.push({ path: req.url ?? '', body: JSON.parse(body.toString()) });
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)));
    const answer = await request(new URL(req.url ?? '/', serve.url), { method: req.method as 'POST', headers: headers as Record<string, string>, body: body.length > 0 ? body : undefined });
    const answerHeaders = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !['connection', 'keep-alive', 'transfer-encoding'].includes(name)));
    res.writeHead(answer.statusCode, answerHeaders);
    res.end(Buffer.from(await answer.body.arrayBuffer()));
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise((resolve) => relay?.close(resolve));
  assert.equal(await serve?.stop(), 0, `serve stops cleanly:\n${serve?.output()}`);
  fs.rmSync(dir, { recursive: true, force: true });
});

const remote = (args: string[]) =>
  runCli([...args, '--remote', '--api-url', relayUrl, '--api-key', key], { env: { IMPRINT_CONFIG_DIR: tempDir('imprint-config-') } });

for (const [written, width, height] of [
  ['100mm 150mm', 283.46, 425.2],
  ['letter', 612, 792],
] as const) {
  test(`--size "${written}" reaches the service as written, and its PDF has that page box`, async () => {
    const out = path.join(dir, 'generated.pdf');
    const html = path.join(dir, 'page.html');
    fs.writeFileSync(html, '<h1>Sized remotely</h1>');
    const already = sent.length;
    const generated = await remote(['generate', '--html', html, '--size', written, '-o', out]);
    assert.equal(generated.code, 0, generated.describe());
    const bodies = sent.slice(already).filter((entry) => entry.path === '/api/generate');
    assert.equal(bodies.length, 1, JSON.stringify(sent.slice(already)));
    assert.equal(bodies[0].body.size, written);
    assert.match(pdfText(out), /Sized remotely/);
    const info = pdfInfo(out);
    assert.ok(sizeMatches(info, width, height), `${info.widthPt} x ${info.heightPt}, asked ${width} x ${height}`);
  });
}

test('a published template rendered remotely gets the size as written too', async () => {
  const published = await remote(['publish', path.join(EXAMPLES, 'invoice', 'Invoice.tsx')]);
  assert.equal(published.code, 0, published.describe());
  const out = path.join(dir, 'invoice.pdf');
  const already = sent.length;
  const rendered = await remote(['render', 'invoice', '--props', path.join(EXAMPLES, 'invoice', 'props.json'), '--size', 'A5', '--orientation', 'landscape', '-o', out]);
  assert.equal(rendered.code, 0, rendered.describe());
  const bodies = sent.slice(already).filter((entry) => entry.path.startsWith('/api/documents/'));
  assert.equal(bodies.length, 1, JSON.stringify(sent.slice(already).map((entry) => entry.path)));
  assert.equal(bodies[0].body.size, 'A5');
  assert.equal(bodies[0].body.orientation, 'landscape');
  const info = pdfInfo(out);
  assert.ok(sizeMatches(info, 595.28, 419.53), `${info.widthPt} x ${info.heightPt}`);
});
