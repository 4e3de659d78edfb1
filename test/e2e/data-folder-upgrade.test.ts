/**
 * A data folder written by Imprint 0.1.0 (Node 20, better-sqlite3: test/fixtures/data-folder-0.1.0,
 * its README says how it was made) opens with today's driver, node:sqlite: the CLI lists and
 * renders its templates, the operator commands read its teams, and `imprint serve` on it answers
 * the fixture's key with the jobs it held and renders for that team. Each test works on its own
 * copy: opening may migrate the database and tightens the folder's permissions.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { EXAMPLES, INPUTS, runCli, tempDir } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { startServeProcess } from '../helpers/serve-process.js';

const FIXTURE = path.join(INPUTS, 'test', 'fixtures', 'data-folder-0.1.0');
/** The fixture's key for team acme (its README). */
const KEY = 'imp_RlFLM5if1CaQEt1H8eMblegZuA92KeI2eDrLFmphmqw';
const PROPS = path.join(EXAMPLES, 'invoice', 'props.json');

const copies: string[] = [];
function copyOfFixture(): string {
  const dir = tempDir('imprint-upgrade-');
  copies.push(dir);
  const dataDir = path.join(dir, 'data');
  fs.cpSync(FIXTURE, dataDir, { recursive: true });
  fs.rmSync(path.join(dataDir, 'README.txt'));
  return dataDir;
}

after(() => {
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a data folder written by 0.1.0 (better-sqlite3)', { timeout: 5 * 60_000 }, () => {
  test('the CLI lists and renders its templates, and the operator commands read its teams and keys', async () => {
    const dataDir = copyOfFixture();
    const listed = await runCli(['list', '--data-dir', dataDir, '--embedded']);
    assert.equal(listed.code, 0, listed.describe());
    assert.match(listed.stdout.toString(), /^invoice\t2\t/m, listed.describe());

    const teams = await runCli(['team', 'list', '--data-dir', dataDir]);
    assert.equal(teams.code, 0, teams.describe());
    assert.match(teams.stdout.toString() + teams.stderr, /acme/, teams.describe());
    const keys = await runCli(['key', 'list', '--team', 'acme', '--data-dir', dataDir]);
    assert.equal(keys.code, 0, keys.describe());
    assert.equal((keys.stdout.toString().match(/key_[0-9a-f]{12}/g) ?? []).length, 2, keys.describe());

    const out = path.join(path.dirname(dataDir), 'v1.pdf');
    const rendered = await runCli(['render', 'invoice', '--version', '1', '--props', PROPS, '-o', out, '--data-dir', dataDir, '--embedded'], { timeoutMs: 120_000 });
    assert.equal(rendered.code, 0, rendered.describe());
    assert.match(pdfText(out), /INV-2025-0142/);

    // And it is still written to: a third version.
    const published = await runCli(['publish', path.join(EXAMPLES, 'invoice', 'Invoice.tsx'), '--data-dir', dataDir, '--embedded'], { timeoutMs: 120_000 });
    assert.equal(published.code, 0, published.describe());
    assert.match(published.stdout.toString() + published.stderr, /version 3/);
  });

  test('imprint serve on it knows the key, lists the jobs it held, and renders for that team', async () => {
    const dataDir = copyOfFixture();
    const server = await startServeProcess({ dataDir });
    try {
      const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      const jobs = await fetch(new URL('/api/jobs', server.url), { headers });
      assert.equal(jobs.status, 200, await jobs.clone().text());
      const { jobs: listed } = (await jobs.json()) as { jobs: { status: string; total: number; done: number; template: string }[] };
      assert.deepEqual(
        listed.map(({ status, total, done, template }) => ({ status, total, done, template })),
        [
          { status: 'completed', total: 1, done: 1, template: 'invoice' },
          { status: 'failed', total: 2, done: 0, template: 'invoice' },
        ],
      );
      const props = JSON.parse(fs.readFileSync(PROPS, 'utf8')) as unknown;
      const rendered = await fetch(new URL('/api/documents/invoice', server.url), { method: 'POST', headers, body: JSON.stringify({ props }) });
      assert.equal(rendered.status, 200, server.output());
      assert.match(pdfText(Buffer.from(await rendered.arrayBuffer())), /INV-2025-0142/);
      const wrongKey = await fetch(new URL('/api/jobs', server.url), { headers: { authorization: `Bearer ${KEY.slice(0, -1)}x` } });
      assert.equal(wrongKey.status, 401);
    } finally {
      assert.equal(await server.stop(), 0, server.output());
    }
  });
});
