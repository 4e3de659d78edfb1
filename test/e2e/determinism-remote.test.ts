/**
 * Determinism and metadata through the service: `imprint serve` as a child process, the CLI
 * in remote mode sending `deterministic` and `metadata` (the body extensions), and a raw A1
 * request with them. Two renders of one published version give the same bytes; so do two
 * `generate`s; SOURCE_DATE_EPOCH on the client's side pins the dates the service writes.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import { cliWithDataDir, INPUTS, runCli, tempDir, type CliOptions } from '../helpers/cli.js';
import { pdfInfoFields } from '../helpers/pdf-metadata.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const FIXTURES = path.join(INPUTS, 'test', 'fixtures', 'determinism');
const statement = path.join(FIXTURES, 'Statement.tsx');
const propsFile = path.join(FIXTURES, 'props.json');
const props = JSON.parse(fs.readFileSync(propsFile, 'utf8'));

const serviceData = tempDir('imprint-serve-');
const operator = cliWithDataDir(serviceData);
const out = tempDir('imprint-determinism-remote-');
let serve: ServeProcess;
let key: string;

/** The CLI in remote mode, nothing from the real user's config. */
const remote = (args: string[], options: CliOptions = {}) =>
  runCli(['--remote', '--api-url', serve.url, '--api-key', key, ...args], {
    ...options,
    env: { IMPRINT_CONFIG_DIR: tempDir('imprint-config-'), IMPRINT_DATA_DIR: tempDir('imprint-user-'), SOURCE_DATE_EPOCH: undefined, ...options.env },
  });

async function rendered(name: string, args: string[], env: Record<string, string | undefined> = {}): Promise<Buffer> {
  const file = path.join(out, `${name}.pdf`);
  const result = await remote([...args, '-o', file], { env });
  assert.equal(result.code, 0, result.describe());
  return fs.readFileSync(file);
}

before(async () => {
  assert.equal((await operator.run(['team', 'create', 'acme'])).code, 0);
  const created = await operator.run(['key', 'create', '--team', 'acme']);
  assert.equal(created.code, 0, created.describe());
  key = created.stdout.toString().trim();
  serve = await startServeProcess({ dataDir: serviceData });
  const published = await remote(['publish', statement, '--id', 'statement']);
  assert.equal(published.code, 0, published.describe());
});

after(async () => {
  const code = await serve?.stop();
  assert.equal(code, 0, `serve stops cleanly:\n${serve?.output()}`);
});

describe('deterministic renders through the service', () => {
  test('a published template twice with --deterministic: the same bytes, with the metadata of its static', async () => {
    const args = ['render', 'statement', '--props', propsFile, '--deterministic'];
    const first = await rendered('a1-1', args);
    const second = await rendered('a1-2', args);
    assert.ok(first.equals(second), 'the same bytes through the service');
    const info = pdfInfoFields(first);
    assert.equal(info.Title, 'Statement ST-0042');
    assert.match(info.Creator, /^Imprint \d/);
    assert.doesNotMatch(info.Creator, /HeadlessChrome/);
  });

  test("SOURCE_DATE_EPOCH on the client's side pins the dates; a --title flag travels as metadata", async () => {
    const pdf = await rendered('a1-epoch', ['render', 'statement', '--props', propsFile, '--title', 'Remote title'], { SOURCE_DATE_EPOCH: '1600000000' });
    const info = pdfInfoFields(pdf);
    assert.equal(info.CreationDate, '2020-09-13T12:26:40Z');
    assert.equal(info.ModDate, '2020-09-13T12:26:40Z');
    assert.equal(info.Title, 'Remote title');
    assert.equal(info.Author, 'Acme Ltd', 'the rest from the static');
  });

  test('generate twice with --deterministic: the same bytes', async () => {
    const html = path.join(out, 'page.html');
    fs.writeFileSync(html, '<h1>Through the service</h1>');
    const first = await rendered('a2-1', ['generate', '--html', html, '--deterministic']);
    const second = await rendered('a2-2', ['generate', '--html', html, '--deterministic']);
    assert.ok(first.equals(second));
  });

  test('A1 with the body extensions; a bad metadata field is a 400 naming it', async () => {
    const post = (body: object) =>
      request(`${serve.url}/api/documents/statement`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const ok = await post({ props, deterministic: true, metadata: { subject: 'Via the API', keywords: ['a', 'b'] } });
    assert.equal(ok.statusCode, 200);
    const info = pdfInfoFields(Buffer.from(await ok.body.arrayBuffer()));
    assert.equal(info.Subject, 'Via the API');
    assert.equal(info.Keywords, 'a, b');
    const bad = await post({ props, metadata: { title: 7 } });
    assert.equal(bad.statusCode, 400);
    assert.match(((await bad.body.json()) as { error: string }).error, /Invalid metadata: title must be a string, got number/);
    const badDate = await post({ props, deterministic: 'yes' });
    assert.equal(badDate.statusCode, 400);
    assert.match(((await badDate.body.json()) as { error: string }).error, /Invalid deterministic/);
  });
});
