/**
 * A render that fails gives its generation back; when even that cannot be written (the disk
 * filled meanwhile, here: the database closed under it), the render's own error is still the
 * answer, carrying the failed release for the log. Real SQLite; the pool's browser source is a
 * stand-in whose launch fails, since no page is needed to reach this path.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createEngine } from '../../../src/core/engine.js';
import { ImprintError } from '../../../src/core/errors.js';
import { createBrowserPool } from '../../../src/core/render/pool.js';
import { openStore } from '../../../src/core/store/index.js';

async function setUp(failRender: (closeStore: () => void) => never) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-engine-release-'));
  const store = openStore({ dataDir });
  const team = await store.createTeam('acme', 10);
  const engine = createEngine({
    store,
    browsers: createBrowserPool({ source: { open: async () => failRender(() => void store.close()) } }),
    renderTimeoutMs: 5_000,
    publishPdf: () => 'unused',
    enforceLimits: true,
  });
  return { dataDir, store, team, engine };
}

test('a failed render gives its generation back', async () => {
  const { dataDir, store, team, engine } = await setUp(() => {
    throw new ImprintError('RENDER_TIMEOUT', 'too slow');
  });
  await assert.rejects(engine.generate(team, { html: '<p>x</p>' }, { format: 'pdf' }), /too slow/);
  assert.equal(await store.usage(team.id), 0);
  await engine.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('when the release itself fails, the render’s error is the answer and carries the release’s', async () => {
  const { dataDir, team, engine } = await setUp((closeStore) => {
    closeStore();
    throw new ImprintError('RENDER_TIMEOUT', 'too slow');
  });
  await assert.rejects(engine.generate(team, { html: '<p>x</p>' }, { format: 'pdf' }), (error: ImprintError & { releaseError?: Error }) => {
    assert.equal(error.code, 'RENDER_TIMEOUT');
    assert.ok(error.releaseError instanceof Error, 'the failed release travels with it');
    return true;
  });
  await engine.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
