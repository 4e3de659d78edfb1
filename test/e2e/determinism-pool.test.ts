/**
 * Determinism within one warm pool (the server's case): the engine renders the same published
 * template, the same local artifact and the same HTML twice on warm pages and gets the same
 * bytes; the finishing edit keeps a tagged PDF's structure tree exactly; a template's broken
 * `metadata` fails the render with the template's own words.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { encodeArtifact, type Artifact } from '../../src/core/artifact.js';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { createEngine, type Engine } from '../../src/core/engine.js';
import { ImprintError } from '../../src/core/errors.js';
import { finishPdf } from '../../src/core/pdf/finish-pdf.js';
import { createBrowserProvider } from '../../src/core/render/browser-provider.js';
import type { BrowserPool } from '../../src/core/render/pool.js';
import { openStore, type Store, type Team } from '../../src/core/store/index.js';
import type { RenderResult } from '../../src/core/result-forms.js';
import { INPUTS } from '../helpers/cli.js';
import { pdfInfoFields, pdfStructure } from '../helpers/pdf-metadata.js';

const FIXTURES = path.join(INPUTS, 'test', 'fixtures', 'determinism');
const props = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'props.json'), 'utf8'));
const pdfOf = (result: RenderResult) => {
  assert.equal(result.format, 'pdf');
  return (result as { pdf: Buffer }).pdf;
};

describe('determinism in one warm pool', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-determinism-pool-'));
  let store: Store;
  let pool: BrowserPool;
  let engine: Engine;
  let team: Team;
  let artifact: Artifact;

  before(async () => {
    store = openStore({ dataDir });
    team = await store.ensureTeam('local');
    pool = createBrowserProvider({ search: {}, runningAsRoot: process.getuid?.() === 0, pool: { concurrency: 1, killOnClose: true } }) as BrowserPool;
    engine = createEngine({ store, browsers: pool, renderTimeoutMs: 30_000, publishPdf: () => 'unused', enforceLimits: false });
    artifact = (await bundleTemplate(path.join(FIXTURES, 'Statement.tsx'))).artifact;
  });

  after(async () => {
    await engine?.close();
    await store?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('a published template twice on a warm page: the same bytes, dated by the publish time', async () => {
    const published = await engine.publish(team, 'statement', encodeArtifact(artifact), 'Statement.tsx');
    const first = pdfOf((await engine.renderDocument(team, 'statement', props, { format: 'pdf', deterministic: true })).result);
    const second = pdfOf((await engine.renderDocument(team, 'statement', props, { format: 'pdf', deterministic: true })).result);
    assert.ok(first.equals(second), 'the same bytes from a warm page');
    assert.equal(pdfInfoFields(first).CreationDate, `${published.publishedAt.slice(0, 19)}Z`);
    assert.equal(pdfInfoFields(first).Title, 'Statement ST-0042');
  });

  test('other props on the same warm page give their own props-derived title', async () => {
    const other = pdfOf((await engine.renderDocument(team, 'statement', { ...props, number: 'ST-7' }, { format: 'pdf', deterministic: true })).result);
    assert.equal(pdfInfoFields(other).Title, 'Statement ST-7');
  });

  test('a local artifact and raw HTML, twice each: the same bytes', async () => {
    const a = pdfOf((await engine.renderUnpublished(team, artifact, props, { format: 'pdf', deterministic: true })).result);
    const b = pdfOf((await engine.renderUnpublished(team, artifact, props, { format: 'pdf', deterministic: true })).result);
    assert.ok(a.equals(b));
    const html = { html: '<h1>Same</h1><img src="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%2210%22 height=%2210%22/%3E">' };
    const c = pdfOf(await engine.generate(team, html, { format: 'pdf', deterministic: 1700000000, metadata: { title: 'Same' } }));
    const d = pdfOf(await engine.generate(team, html, { format: 'pdf', deterministic: 1700000000, metadata: { title: 'Same' } }));
    assert.ok(c.equals(d));
    assert.equal(pdfInfoFields(c).CreationDate, '2023-11-14T22:13:20Z');
  });

  test("Chromium's own PDF differs only in its dates: with them fixed, two prints are equal before any other edit", async () => {
    const job = { isolationKey: 'team:1', artifactKey: 'raw', artifact, props, request: {}, timeoutMs: 30_000 };
    const date = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
    const raw = [(await pool.renderTemplate(job)).pdf, (await pool.renderTemplate(job)).pdf];
    const finished = await Promise.all(raw.map((pdf) => finishPdf(pdf, { date })));
    assert.ok(finished[0].equals(finished[1]));
    assert.doesNotMatch(raw[0].toString('latin1'), /\/ID\s*\[/, 'Chromium writes no document /ID');
    assert.doesNotMatch(finished[0].toString('latin1'), /\/ID\s*\[/, 'and the edit adds none');
  });

  test("the edit keeps a tagged PDF's structure tree as Chromium wrote it", async () => {
    const job = { isolationKey: 'team:1', artifactKey: 'raw', artifact, props, request: { tagged: true }, timeoutMs: 30_000 };
    const raw = (await pool.renderTemplate(job)).pdf;
    const finished = await finishPdf(raw, { templateMetadata: { title: 'Tagged' } });
    assert.equal(pdfInfoFields(finished).Tagged, 'yes');
    assert.equal(pdfStructure(finished), pdfStructure(raw));
    assert.match(pdfInfoFields(raw).Creator, /HeadlessChrome/, 'what Chromium writes by itself');
    assert.equal(pdfInfoFields(finished).Title, 'Tagged');
  });

  test("a template's metadata that is not metadata, or throws, fails the render and says so", async () => {
    await assert.rejects(finishPdf(Buffer.alloc(0), { templateMetadata: { title: 42 } }), (error: ImprintError) => {
      assert.equal(error.code, 'RENDER_FAILED');
      assert.match(error.message, /Invalid template's metadata: title must be a string, got number/);
      return true;
    });
    const throwing = (await bundleTemplate(path.join(FIXTURES, 'ThrowingMetadata.tsx'))).artifact;
    await assert.rejects(engine.renderUnpublished(team, throwing, {}, { format: 'pdf' }), (error: ImprintError) => {
      assert.equal(error.code, 'RENDER_FAILED');
      assert.match(error.message, /ThrowingMetadata\.tsx threw while rendering: its metadata: no customer for the subject/);
      return true;
    });
    const fine = pdfOf((await engine.renderUnpublished(team, throwing, { customer: 'ACME' }, { format: 'pdf' })).result);
    assert.equal(pdfInfoFields(fine).Subject, 'ACME');
  });
});
