/**
 * The worker's side of a row (core/jobs/jobs.ts runRow) against a real SQLite store, with a
 * renderer handed in: no row can stay `running` because its outcome could not be recorded (it
 * ends failed, its unit comes back), and a row claimed past its retry budget (its nodes kept
 * dying) fails without another render.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { afterEach, beforeEach, test } from 'node:test';
import { ImprintError } from '../../../../src/core/errors.js';
import type { JobQueue } from '../../../../src/core/jobs/job-queue.js';
import type { JobStore } from '../../../../src/core/jobs/job-types.js';
import { createJobs } from '../../../../src/core/jobs/jobs.js';
import { openStore, type Store } from '../../../../src/core/store/index.js';
import { tempDir } from '../../../helpers/checkout.js';

let dataDir: string;
let store: Store;

beforeEach(() => {
  dataDir = tempDir('imprint-run-row-');
  store = openStore({ dataDir });
});

afterEach(async () => {
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const queue: JobQueue = { wake: () => undefined, start: async () => undefined, stop: async () => undefined };

function jobsWith(jobs: JobStore, render: () => Promise<Buffer>) {
  let renders = 0;
  const errors: unknown[] = [];
  const runner = createJobs({
    store,
    jobs,
    queue,
    renderer: {
      renderPinned: async () => {
        renders++;
        return render();
      },
      generatePdf: async () => {
        renders++;
        return render();
      },
    },
    checkRenderUrl: async (url) => url,
    urlTtlMs: 60_000,
    urls: { jobStatus: (id) => `http://127.0.0.1/api/jobs/${id}`, jobArchive: (id) => `http://127.0.0.1/api/jobs/${id}/archive`, download: (token) => `http://127.0.0.1/api/files/${token}` },
    maxAttempts: 3,
    onError: (error) => errors.push(error),
  });
  return { runner, renders: () => renders, errors };
}

test('an outcome the store refuses to record: the row ends failed with a plain reason, its unit given back', async () => {
  const team = await store.createTeam('acme', 10);
  // The store refuses the first outcome of each row (as PostgreSQL refused a NUL byte in text).
  let refused = 0;
  const refusing: JobStore = {
    ...store.jobs,
    finishRow: async (claim, result) => {
      if (!result.ok && result.error.includes('template')) {
        refused++;
        throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
      }
      return store.jobs.finishRow(claim, result);
    },
  };
  const { runner, errors } = jobsWith(refusing, async () => {
    throw new ImprintError('RENDER_FAILED', 'the template threw: bad\u0000byte');
  });
  const job = await runner.submit(team, { rows: [{ html: '<p>x</p>' }] });
  const [claim] = await store.jobs.claimInTurn(1, 60_000, []);
  await runner.runRow(claim);
  assert.equal(refused, 1);
  assert.match(String(errors[0]), /invalid byte sequence/, 'the refusal is reported, not swallowed');
  const [row] = await store.jobs.rows(job.id);
  assert.equal(row.state, 'failed');
  assert.equal(row.code, 'INTERNAL');
  assert.match(row.error!, /could not be recorded/);
  assert.equal((await store.jobs.jobById(job.id))!.status, 'failed');
  assert.equal(await store.usage(team.id), 0, 'its unit came back');
});

test('a row claimed past its retry budget fails without another render, its unit given back', async () => {
  const team = await store.createTeam('acme', 10);
  const { runner, renders } = jobsWith(store.jobs, async () => Buffer.from('%PDF-1.4'));
  const job = await runner.submit(team, { rows: [{ html: '<p>x</p>' }] });
  // Three nodes died holding it: each claim after a lease ran out is an attempt.
  let claim = (await store.jobs.claimInTurn(1, 1, []))[0];
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    claim = (await store.jobs.claimInTurn(1, 1, []))[0];
  }
  assert.equal(claim.attempt, 4);
  await runner.runRow(claim);
  assert.equal(renders(), 0);
  const [row] = await store.jobs.rows(job.id);
  assert.deepEqual([row.state, row.code], ['failed', 'INTERNAL']);
  assert.match(row.error!, /tried 3 times/);
  assert.equal(await store.usage(team.id), 0);
});
