/**
 * A job renders the template version it pinned at submit (api.md Parts D and E), through the
 * service's own job runtime and engine, a real Chromium and a real store: the version is looked
 * up once per job, not once per row; a version published while the job runs changes none of its
 * rows; and a job stored before versions were pinned whole (its spec without `pinned`, as the
 * job tables of SQLite and PostgreSQL hold it) still runs, its version looked up once.
 *
 * In process (from the checkout's source), as test/e2e/determinism-pool.test.ts: the count of
 * lookups needs the store handed to the runtime, which a child `imprint serve` cannot be given.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { encodeArtifact } from '../../src/core/artifact.js';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import type { JobRecord, JobSpec } from '../../src/core/jobs/job-types.js';
import { DEFAULT_RENDER_LIMITS } from '../../src/core/limits/render-limits.js';
import { createNetPolicy } from '../../src/core/net/address-policy.js';
import { createBrowserProvider } from '../../src/core/render/browser-provider.js';
import type { BrowserPool } from '../../src/core/render/pool.js';
import type { Store, Team } from '../../src/core/store/index.js';
import { openStoreAt } from '../../src/core/store/open-store.js';
import { createJobsRuntime, type JobsRuntime } from '../../src/server/jobs/runtime.js';
import { createServerEngine } from '../../src/server/server-engine.js';
import { serviceUrls } from '../../src/server/urls.js';
import { INPUTS, tempDir } from '../helpers/cli.js';
import { FINAL, waitFor } from '../helpers/jobs.js';
import { pdfText } from '../helpers/pdf.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';

const FIXTURES = path.join(INPUTS, 'test', 'fixtures', 'jobs-pinned');
const SCHEMA = { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } };
const rows = (count: number) => Array.from({ length: count }, (_, index) => ({ n: index + 1 }));

let pool: BrowserPool;
let editionOne: Buffer;
let editionTwo: Buffer;
let cluster: PostgresCluster | undefined;

before(async () => {
  pool = createBrowserProvider({ search: {}, runningAsRoot: process.getuid?.() === 0, pool: { concurrency: 2, killOnClose: true } }) as BrowserPool;
  editionOne = encodeArtifact((await bundleTemplate(path.join(FIXTURES, 'EditionOne.tsx'))).artifact);
  editionTwo = encodeArtifact((await bundleTemplate(path.join(FIXTURES, 'EditionTwo.tsx'))).artifact);
});

after(async () => {
  await pool?.close();
  await cluster?.stop();
});

/** The service's job path over `opened`, its template lookups counted. */
async function jobPath(opened: Store) {
  let resolves = 0;
  const store = new Proxy(opened, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== 'resolveTemplate') return typeof value === 'function' ? value.bind(target) : value;
      return (...args: Parameters<Store['resolveTemplate']>) => {
        resolves++;
        return target.resolveTemplate(...args);
      };
    },
  });
  const urls = serviceUrls(() => 'http://127.0.0.1:1/');
  const engine = createServerEngine({ store, browsers: pool, renderTimeoutMs: 60_000, renderLimits: DEFAULT_RENDER_LIMITS, urlTtlMs: 3_600_000, urls });
  const errors: unknown[] = [];
  const runtime: JobsRuntime = await createJobsRuntime({ store, engine, browsers: pool, urlTtlMs: 3_600_000, urls, netPolicy: createNetPolicy(), leaseMs: 60_000, pollMs: 200, onError: (error) => errors.push(error) });
  return { store, runtime, errors, resolves: () => resolves };
}

const finished = (store: Store, jobId: string) => waitFor(() => store.jobs.jobById(jobId), (job) => FINAL.includes(job!.status), `job ${jobId} to finish`) as Promise<JobRecord>;

/** Every row rendered, each PDF's text the edition and the row asked for. */
async function assertRows(store: Store, job: JobRecord, count: number, edition: string) {
  assert.deepEqual([job.status, job.done, job.failed], ['completed', count, 0]);
  const done = await store.jobs.rows(job.id);
  for (const row of done) {
    const file = await store.openIssuedFile(row.token!);
    const chunks: Buffer[] = [];
    for await (const chunk of await file!.open()) chunks.push(chunk as Buffer);
    assert.match(pdfText(Buffer.concat(chunks)), new RegExp(`Edition ${edition}, row ${row.row}\\b`), `row ${row.row}`);
  }
}

describe('a job on SQLite', () => {
  const dataDir = tempDir('imprint-jobs-pinned-');
  let opened: Store;
  let team: Team;
  let service: Awaited<ReturnType<typeof jobPath>>;

  before(async () => {
    opened = await openStoreAt({ dataDir });
    team = await opened.ensureTeam('acme', 1000);
    await opened.publishTemplate(team.id, 'edition', editionOne, { sourceName: 'EditionOne.tsx', propsSchema: SCHEMA });
    service = await jobPath(opened);
    await service.runtime.start();
  });

  after(async () => {
    await service?.runtime.stop();
    await opened?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('a 50-row job looks its template up once, at submit', { timeout: 300_000 }, async () => {
    const before = service.resolves();
    const job = await service.runtime.jobs.submit(team, { template: 'edition', rows: rows(50) });
    await assertRows(opened, await finished(opened, job.id), 50, 'one');
    assert.equal(service.resolves() - before, 1, 'one lookup for the job, none per row');
    assert.deepEqual(service.errors, []);
  });

  test('a version published while the job runs: every row renders the pinned one', { timeout: 300_000 }, async () => {
    const job = await service.runtime.jobs.submit(team, { template: 'edition', rows: rows(12) });
    // The first row is done: the job is under way when version 2 comes.
    const seen = await waitFor(() => opened.jobs.jobById(job.id), (record) => record!.done > 0, 'a first row');
    assert.ok(seen!.done < 12, 'rows were still to render when version 2 came');
    const published = await opened.publishTemplate(team.id, 'edition', editionTwo, { sourceName: 'EditionTwo.tsx', propsSchema: SCHEMA });
    assert.equal(published.version, 2);
    const over = await finished(opened, job.id);
    assert.equal(over.spec.kind === 'document' && over.spec.version, 1);
    await assertRows(opened, over, 12, 'one');
  });
});

/** A document job as submit stored it before versions were pinned whole: no `pinned`. */
async function storeOldShapeJob(store: Store, team: Team, count: number): Promise<string> {
  const template = await store.resolveTemplate(team.id, 'edition');
  const spec: JobSpec = { kind: 'document', templateId: template.id, templateUuid: template.uuid, version: template.version, options: { format: 'pdf' } };
  const job = await store.jobs.createJob({ id: randomUUID(), teamId: team.id, spec, rows: rows(count) });
  assert.equal(JSON.stringify(job.spec).includes('pinned'), false);
  return job.id;
}

for (const backend of ['SQLite', 'PostgreSQL'] as const) {
  test(`a job stored before versions were pinned (${backend}) still runs, its version looked up once`, { timeout: 300_000 }, async () => {
    const dataDir = tempDir('imprint-jobs-old-shape-');
    let databaseUrl: string | undefined;
    if (backend === 'PostgreSQL') {
      cluster ??= await startPostgres();
      databaseUrl = await cluster.createDatabase();
    }
    const opened = await openStoreAt({ dataDir, databaseUrl });
    try {
      const team = await opened.ensureTeam('acme', 1000);
      await opened.publishTemplate(team.id, 'edition', editionOne, { sourceName: 'EditionOne.tsx', propsSchema: SCHEMA });
      // Stored, then the service (this version) starts and finds it in the job tables.
      const jobId = await storeOldShapeJob(opened, team, 10);
      const { runtime, resolves, errors } = await jobPath(opened);
      await runtime.start();
      try {
        await assertRows(opened, await finished(opened, jobId), 10, 'one');
      } finally {
        await runtime.stop();
      }
      assert.equal(resolves(), 1, 'one lookup for the job, none per row');
      assert.deepEqual(errors, []);
    } finally {
      await opened.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
