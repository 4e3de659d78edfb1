/**
 * Test keys (api.md Part F) against a real `imprint serve`: made by the operator command
 * (`imprint key create --test`) or in the dashboard, their documents carry a TEST stamp on
 * every page (read back with pdftotext), answer with a header saying so, and leave the team's
 * usage unchanged; a live key's document of the same template is unstamped and counted.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT, cliWithDataDir, runCli, tempDir } from '../helpers/cli.js';
import { pdfInfo, withFile } from '../helpers/pdf.js';

/**
 * The text in content order (-raw), white space dropped: poppler writes a diagonal word letter
 * by letter on lines of their own, which a PDF reader's search still finds as one word.
 */
const rawText = (pdf: Buffer) =>
  withFile(pdf, (file) => execFileSync('pdftotext', ['-raw', file, '-']).toString())
    .split('\f')
    .map((page) => page.replace(/\s+/g, ''))
    .join('\f');
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

describe('test keys', () => {
  const operator = cliWithDataDir();
  let serve: ServeProcess;
  let liveKey = '';
  let testKey = '';

  const post = (pathname: string, key: string, body: unknown) =>
    fetch(new URL(pathname, serve.url), { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const used = async () => ((await (await fetch(new URL('/api/me', serve.url), { headers: { authorization: `Bearer ${liveKey}` } })).json()) as { team: { usedThisMonth: number } }).team.usedThisMonth;

  before(async () => {
    assert.equal((await operator.run(['team', 'create', 'acme'])).code, 0);
    liveKey = (await operator.run(['key', 'create', '--team', 'acme'])).stdout.toString().trim();
    const made = await operator.run(['key', 'create', '--team', 'acme', '--test']);
    assert.equal(made.code, 0, made.describe());
    assert.match(made.stderr, /test key/);
    testKey = made.stdout.toString().trim();
    serve = await startServeProcess({ dataDir: operator.dataDir });
    const project = tempDir('imprint-testkeys-');
    fs.writeFileSync(path.join(project, 'package.json'), '{"name":"p","private":true}\n');
    // Two pages: the stamp must be on each.
    fs.writeFileSync(
      path.join(project, 'Letter.tsx'),
      "export default function Letter(props: { to: string }) { return <><p>Dear {props.to}</p><p style={{ breakBefore: 'page' }}>Page two</p></>; }\nLetter.documentId = 'letter';\n",
    );
    const published = await runCli(['publish', path.join(project, 'Letter.tsx')], { env: { IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: liveKey, IMPRINT_DATA_DIR: tempDir() } });
    assert.equal(published.code, 0, published.describe());
  });

  after(async () => {
    const code = await serve?.stop();
    assert.equal(code, 0, `serve stops cleanly:\n${serve?.output()}`);
  });

  test("a test key's document is stamped TEST on every page, says so, and is not counted", async () => {
    const before = await used();
    const answer = await post('/api/documents/letter', testKey, { props: { to: 'Ada' } });
    assert.equal(answer.status, 200, await answer.clone().text());
    assert.equal(answer.headers.get('imprint-test-key'), 'stamped; not counted');
    const pdf = Buffer.from(await answer.arrayBuffer());
    assert.equal(pdfInfo(pdf).pages, 2);
    const pages = rawText(pdf).split('\f').filter((page) => page.trim());
    assert.equal(pages.length, 2);
    for (const page of pages) assert.match(page, /TEST/, 'stamped on every page');
    assert.match(pages[0], /DearAda/, 'the document is still there');
    // Its first page as an image, for a person to look at.
    const output = path.join(ROOT, 'test-output', 'dashboard');
    fs.mkdirSync(output, { recursive: true });
    withFile(pdf, (file) => execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '-singlefile', file, path.join(output, '13-test-key-stamp')]));
    assert.equal(await used(), before, 'not counted');

    // A2 and the json form alike: the stored PDF is the stamped one.
    const generated = await post('/api/generate', testKey, { html: '<p>Raw HTML</p>', format: 'json' });
    assert.equal(generated.status, 200);
    const { url } = (await generated.json()) as { url: string };
    const downloaded = Buffer.from(await (await fetch(url)).arrayBuffer());
    assert.match(rawText(downloaded), /RawHTML[\s\S]*TEST/);
    assert.equal(await used(), before, 'not counted either');
  });

  test("a live key's document of the same template is unstamped and counted", async () => {
    const before = await used();
    const answer = await post('/api/documents/letter', liveKey, { props: { to: 'Ada' } });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('imprint-test-key'), null);
    const text = rawText(Buffer.from(await answer.arrayBuffer()));
    assert.match(text, /DearAda/);
    assert.doesNotMatch(text, /TEST/);
    assert.equal(await used(), before + 1);
  });

  test('a test key made in the dashboard is a test key too; jobs refuse test keys rather than count them', async () => {
    const origin = new URL(serve.url).origin;
    const signIn = await fetch(new URL('/dashboard/api/session', serve.url), { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify({ key: liveKey }) });
    assert.equal(signIn.status, 200);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
    const { csrf } = (await signIn.json()) as { csrf: string };
    const made = await fetch(new URL('/dashboard/api/keys', serve.url), { method: 'POST', headers: { origin, cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }, body: JSON.stringify({ test: true }) });
    assert.equal(made.status, 201);
    const { key } = (await made.json()) as { key: string };
    const before = await used();
    const answer = await post('/api/documents/letter', key, { props: { to: 'Bo' } });
    assert.equal(answer.status, 200);
    assert.match(rawText(Buffer.from(await answer.arrayBuffer())), /TEST/);
    assert.equal(await used(), before);

    const job = await post('/api/jobs', key, { template: 'letter', rows: [{ to: 'x' }] });
    assert.equal(job.status, 400);
    assert.match(((await job.json()) as { error: string }).error, /Jobs do not take test keys/);
    assert.equal(await used(), before);
  });
});
