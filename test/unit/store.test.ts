import { test, describe, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { ImprintError } from '../../src/core/errors.js';
import { openStore, type Store } from '../../src/core/store/index.js';
import { MIGRATIONS } from '../../src/core/store/migrations.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const storeEntry = pathToFileURL(path.join(projectRoot, 'src/core/store/index.ts')).href;

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A clock the test moves by hand. */
function manualClock(start: string) {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (iso: string) => {
      current = new Date(iso);
    },
    advance: (ms: number) => {
      current = new Date(current.getTime() + ms);
    },
  };
}

const isError = (code: string, pattern?: RegExp) => (error: unknown) => {
  assert.ok(error instanceof ImprintError, `expected an ImprintError, got ${String(error)}`);
  assert.equal(error.code, code);
  if (pattern) assert.match(error.message, pattern);
  return true;
};

let dataDir: string;
let clock: ReturnType<typeof manualClock>;
let store: Store;

beforeEach(() => {
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-store-')), 'data');
  clock = manualClock('2025-01-15T12:00:00.000Z');
  store = openStore({ dataDir, now: clock.now });
});

afterEach(() => {
  store.close();
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

describe('opening the data folder', () => {
  test('creates the folder, the database in WAL mode and the current schema', () => {
    assert.ok(fs.statSync(path.join(dataDir, 'artifacts')).isDirectory());
    assert.ok(fs.statSync(path.join(dataDir, 'files')).isDirectory());
    const db = new Database(path.join(dataDir, 'imprint.db'), { readonly: true });
    try {
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
    } finally {
      db.close();
    }
  });

  test('reopening keeps the data', () => {
    const team = store.ensureTeam('local');
    store.publishTemplate(team.id, 'invoice', Buffer.from('v1'));
    store.close();
    store = openStore({ dataDir, now: clock.now });
    assert.equal(store.resolveTemplate(team.id, 'invoice').version, 1);
  });

  test('refuses a database written by a newer Imprint', () => {
    store.close();
    const db = new Database(path.join(dataDir, 'imprint.db'));
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    assert.throws(() => openStore({ dataDir }), isError('INTERNAL', /newer than this Imprint understands.*Upgrade Imprint/));
    store = openStore({ dataDir: path.join(path.dirname(dataDir), 'other') });
  });

  test('enforces foreign keys', () => {
    assert.throws(() => store.publishTemplate(999, 'x', Buffer.from('a')), isError('NOT_FOUND', /No team with id 999/));
  });
});

describe('teams', () => {
  test('ensureTeam gets or creates, createTeam refuses duplicates', () => {
    const local = store.ensureTeam('local');
    assert.equal(local.name, 'local');
    assert.equal(local.generationLimit, 1000);
    assert.equal(local.createdAt, '2025-01-15T12:00:00.000Z');
    assert.deepEqual(store.ensureTeam('local', 5), local);
    assert.throws(() => store.createTeam('local'), isError('INVALID_INPUT', /already exists/));
    const acme = store.createTeam('acme.co_2-x', 25);
    assert.equal(acme.generationLimit, 25);
    assert.deepEqual(store.getTeam('acme.co_2-x'), acme);
    assert.equal(store.getTeam('nobody'), undefined);
  });

  test('validates names and limits', () => {
    for (const name of ['', 'a b', 'x'.repeat(65), 'é', 'a/b']) {
      assert.throws(() => store.createTeam(name), isError('INVALID_INPUT', /Invalid team name/), name);
    }
    assert.ok(store.createTeam('x'.repeat(64)));
    for (const limit of [-1, 1.5, Number.NaN, Infinity]) {
      assert.throws(() => store.createTeam('t', limit), isError('INVALID_INPUT', /Invalid generation limit/));
    }
  });

  test('setTeamLimit and listTeams with this month usage', () => {
    const a = store.createTeam('a');
    store.createTeam('b', 0);
    assert.equal(store.setTeamLimit('a', 2).generationLimit, 2);
    assert.throws(() => store.setTeamLimit('nobody', 2), isError('NOT_FOUND', /No team named "nobody"/));
    assert.throws(() => store.setTeamLimit('a', -3), isError('INVALID_INPUT'));
    store.reserveGeneration(a.id).commit();
    assert.deepEqual(
      store.listTeams().map((t) => [t.name, t.generationLimit, t.usedThisMonth]),
      [
        ['a', 2, 1],
        ['b', 0, 0],
      ],
    );
    clock.set('2025-02-01T00:00:00.000Z');
    assert.equal(store.listTeams()[0]!.usedThisMonth, 0);
  });
});

describe('API keys', () => {
  test('create, list, authenticate, revoke', () => {
    const team = store.createTeam('acme');
    const { keyId, key } = store.createApiKey('acme');
    assert.match(keyId, /^key_[0-9a-f]+$/);
    assert.match(key, /^imp_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(store.authenticateKey(key)?.team, team);

    const listed = store.listApiKeys('acme');
    assert.deepEqual(listed, [{ id: keyId, createdAt: '2025-01-15T12:00:00.000Z', revokedAt: null }]);
    assert.ok(!JSON.stringify(listed).includes(key));

    // Only the hash reaches the disk.
    store.close();
    const db = new Database(path.join(dataDir, 'imprint.db'), { readonly: true });
    const row = db.prepare('SELECT key_hash FROM api_keys WHERE id = ?').get(keyId) as { key_hash: string };
    db.close();
    assert.equal(row.key_hash, sha256(key));
    store = openStore({ dataDir, now: clock.now });

    clock.advance(1000);
    store.revokeApiKey(keyId);
    store.revokeApiKey(keyId); // idempotent
    assert.equal(store.authenticateKey(key), undefined);
    assert.deepEqual(store.listApiKeys('acme')[0]!.revokedAt, '2025-01-15T12:00:01.000Z');
  });

  test('unknown, malformed and foreign keys', () => {
    store.createTeam('acme');
    const { key } = store.createApiKey('acme');
    assert.equal(store.authenticateKey(`imp_${'A'.repeat(43)}`), undefined);
    assert.equal(store.authenticateKey(key.slice(0, -1)), undefined);
    assert.equal(store.authenticateKey(key.slice(4)), undefined);
    assert.equal(store.authenticateKey(''), undefined);
    assert.equal(store.authenticateKey(undefined as unknown as string), undefined);
    assert.throws(() => store.revokeApiKey('key_nope'), isError('NOT_FOUND', /No API key with id "key_nope"/));
    assert.throws(() => store.createApiKey('nobody'), isError('NOT_FOUND'));
    assert.throws(() => store.listApiKeys('nobody'), isError('NOT_FOUND'));
  });

  test('each team authenticates with its own keys', () => {
    const a = store.createTeam('a');
    const b = store.createTeam('b');
    assert.equal(store.authenticateKey(store.createApiKey('a').key)?.team.id, a.id);
    assert.equal(store.authenticateKey(store.createApiKey('b').key)?.team.id, b.id);
  });
});

describe('templates', () => {
  test('each publish is a new immutable version with a readable artifact', () => {
    const team = store.ensureTeam('local');
    const schema = { type: 'object', properties: { n: { type: 'number' } } };
    const v1 = store.publishTemplate(team.id, 'invoice', Buffer.from('bundle one'), { propsSchema: schema, sourceName: 'Invoice.tsx' });
    clock.advance(60_000);
    const v2 = store.publishTemplate(team.id, 'invoice', Buffer.from('bundle two'));
    clock.advance(60_000);
    const v3 = store.publishTemplate(team.id, 'invoice', Buffer.from('bundle one'));

    assert.deepEqual(v1, {
      id: 'invoice',
      uuid: v1.uuid,
      version: 1,
      publishedAt: '2025-01-15T12:00:00.000Z',
      artifactSha256: sha256('bundle one'),
      bytes: 10,
    });
    assert.match(v1.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual([v2.version, v3.version], [2, 3]);
    assert.equal(v2.uuid, v1.uuid);
    assert.equal(v3.artifactSha256, v1.artifactSha256, 'same bytes, same artifact');

    assert.ok(fs.existsSync(path.join(dataDir, 'artifacts', v2.artifactSha256)));
    assert.equal(store.readArtifact(v2.artifactSha256).toString(), 'bundle two');
    assert.equal(store.readArtifact(v3.artifactSha256).toString(), 'bundle one');

    const latest = store.resolveTemplate(team.id, 'invoice');
    assert.deepEqual(latest, { id: 'invoice', uuid: v1.uuid, version: 3, artifactSha256: v3.artifactSha256, propsSchema: null, publishedAt: v3.publishedAt });
    assert.deepEqual(store.resolveTemplate(team.id, v1.uuid, 1).propsSchema, schema);
    assert.equal(store.resolveTemplate(team.id, 'invoice', 2).artifactSha256, sha256('bundle two'));

    assert.deepEqual(store.getTemplate(team.id, v1.uuid), {
      id: 'invoice',
      uuid: v1.uuid,
      createdAt: '2025-01-15T12:00:00.000Z',
      versions: [
        { version: 1, publishedAt: '2025-01-15T12:00:00.000Z', bytes: 10, artifactSha256: sha256('bundle one'), sourceName: 'Invoice.tsx', hasSchema: true, publishedBy: null, rollbackOf: null },
        { version: 2, publishedAt: '2025-01-15T12:01:00.000Z', bytes: 10, artifactSha256: sha256('bundle two'), sourceName: null, hasSchema: false, publishedBy: null, rollbackOf: null },
        { version: 3, publishedAt: '2025-01-15T12:02:00.000Z', bytes: 10, artifactSha256: sha256('bundle one'), sourceName: null, hasSchema: false, publishedBy: null, rollbackOf: null },
      ],
    });
    assert.deepEqual(store.getTemplate(team.id, 'invoice'), store.getTemplate(team.id, v1.uuid));
  });

  test('lists templates by id with their latest version', () => {
    const team = store.ensureTeam('local');
    store.publishTemplate(team.id, 'report', Buffer.from('r1'));
    clock.advance(1000);
    const invoice = store.publishTemplate(team.id, 'invoice', Buffer.from('i1'));
    clock.advance(1000);
    store.publishTemplate(team.id, 'report', Buffer.from('r2'));
    const list = store.listTemplates(team.id);
    assert.deepEqual(
      list.map((t) => [t.id, t.latestVersion, t.publishedAt, t.createdAt]),
      [
        ['invoice', 1, '2025-01-15T12:00:01.000Z', '2025-01-15T12:00:01.000Z'],
        ['report', 2, '2025-01-15T12:00:02.000Z', '2025-01-15T12:00:00.000Z'],
      ],
    );
    assert.equal(list[0]!.uuid, invoice.uuid);
  });

  test('clear errors for unknown templates and versions', () => {
    const team = store.ensureTeam('local');
    store.publishTemplate(team.id, 'invoice', Buffer.from('a'));
    store.publishTemplate(team.id, 'invoice', Buffer.from('b'));
    assert.throws(
      () => store.resolveTemplate(team.id, 'nope'),
      isError('NOT_FOUND', /^No template "nope" in this team\. Run `imprint list` to see the published ids\.$/),
    );
    assert.throws(() => store.resolveTemplate(team.id, 'invoice', 7), isError('NOT_FOUND', /has no version 7; its versions are 1-2\..*latest \(2\)/));
    assert.throws(() => store.resolveTemplate(team.id, 'invoice', 0), isError('INVALID_INPUT'));
    assert.equal(store.getTemplate(team.id, 'nope'), undefined);
  });

  test('validates the id, the artifact and the schema', () => {
    const team = store.ensureTeam('local');
    for (const id of ['', '../x', '.hidden', 'a b', 'x'.repeat(129)]) {
      assert.throws(() => store.publishTemplate(team.id, id, Buffer.from('a')), isError('INVALID_INPUT', /Invalid template id/), id);
    }
    assert.throws(() => store.publishTemplate(team.id, 'x', Buffer.alloc(0)), isError('INVALID_INPUT', /empty artifact/));
    assert.throws(
      () => store.publishTemplate(team.id, 'x', Buffer.from('a'), { propsSchema: [] as unknown as object }),
      isError('INVALID_INPUT', /props schema/),
    );
    assert.deepEqual(store.listTemplates(team.id), []);
  });

  test("another team's template is exactly like an unknown one", () => {
    const a = store.createTeam('a');
    const b = store.createTeam('b');
    const mine = store.publishTemplate(a.id, 'invoice', Buffer.from('a-invoice'));
    for (const ref of ['invoice', mine.uuid]) {
      assert.equal(store.getTemplate(b.id, ref), undefined);
      assert.equal(store.deleteTemplate(b.id, ref), false);
      assert.throws(() => store.resolveTemplate(b.id, ref), isError('NOT_FOUND', new RegExp(`^No template "${ref}" in this team`)));
    }
    assert.deepEqual(store.listTemplates(b.id), []);

    // The same id in another team is another template, with its own uuid and numbering.
    const theirs = store.publishTemplate(b.id, 'invoice', Buffer.from('b-invoice'));
    assert.equal(theirs.version, 1);
    assert.notEqual(theirs.uuid, mine.uuid);
    assert.equal(store.readArtifact(store.resolveTemplate(a.id, 'invoice').artifactSha256).toString(), 'a-invoice');
    assert.equal(store.readArtifact(store.resolveTemplate(b.id, 'invoice').artifactSha256).toString(), 'b-invoice');
  });

  test('delete hides a template; publishing the id again revives it and continues the numbering', () => {
    const team = store.ensureTeam('local');
    const v1 = store.publishTemplate(team.id, 'invoice', Buffer.from('one'));
    store.publishTemplate(team.id, 'invoice', Buffer.from('two'));
    store.publishTemplate(team.id, 'other', Buffer.from('other'));

    assert.equal(store.deleteTemplate(team.id, v1.uuid), true);
    assert.equal(store.deleteTemplate(team.id, 'invoice'), false, 'already deleted');
    assert.deepEqual(store.listTemplates(team.id).map((t) => t.id), ['other']);
    assert.equal(store.getTemplate(team.id, 'invoice'), undefined);
    assert.equal(store.getTemplate(team.id, v1.uuid), undefined);
    assert.throws(() => store.resolveTemplate(team.id, 'invoice'), isError('NOT_FOUND'));
    // Soft delete: the artifacts stay.
    assert.equal(store.readArtifact(v1.artifactSha256).toString(), 'one');

    const v3 = store.publishTemplate(team.id, 'invoice', Buffer.from('three'));
    assert.equal(v3.version, 3);
    assert.equal(v3.uuid, v1.uuid);
    assert.deepEqual(store.getTemplate(team.id, 'invoice')!.versions.map((v) => v.version), [1, 2, 3]);
    assert.deepEqual(store.listTemplates(team.id).map((t) => t.id), ['invoice', 'other']);
  });

  test('a damaged artifact is reported, and publishing again repairs it', () => {
    const team = store.ensureTeam('local');
    const v1 = store.publishTemplate(team.id, 'invoice', Buffer.from('good bytes'));
    const file = path.join(dataDir, 'artifacts', v1.artifactSha256);
    fs.writeFileSync(file, 'bad');
    assert.throws(() => store.readArtifact(v1.artifactSha256), isError('INTERNAL', /damaged/));
    store.publishTemplate(team.id, 'invoice', Buffer.from('good bytes'));
    assert.equal(store.readArtifact(v1.artifactSha256).toString(), 'good bytes');
    fs.rmSync(file);
    assert.throws(() => store.readArtifact(v1.artifactSha256), isError('INTERNAL', /missing/));
    assert.throws(() => store.readArtifact('../imprint.db'), isError('INVALID_INPUT'));
  });

  test('no temp files are left after publishing', () => {
    const team = store.ensureTeam('local');
    store.publishTemplate(team.id, 'invoice', Buffer.from('x'));
    assert.deepEqual(fs.readdirSync(path.join(dataDir, 'artifacts')), [sha256('x')]);
  });
});

describe('generation limit', () => {
  test('reserve up to the limit; commit keeps, release gives back; both idempotent', () => {
    const team = store.createTeam('acme', 3);
    const first = store.reserveGeneration(team.id);
    const second = store.reserveGeneration(team.id);
    const third = store.reserveGeneration(team.id);
    assert.equal(store.usage(team.id), 3);
    assert.throws(
      () => store.reserveGeneration(team.id),
      isError('LIMIT_EXCEEDED', /Team "acme" has used all 3 generations allowed for 2025-01 \(UTC\)\..*raise the limit/),
    );
    assert.equal(store.usage(team.id), 3, 'a refused reservation counts nothing');

    first.commit();
    first.commit();
    first.release(); // after commit: no effect
    second.release();
    second.release(); // a second release does not give back twice
    second.commit();
    assert.equal(store.usage(team.id), 2);
    store.reserveGeneration(team.id).commit();
    assert.throws(() => store.reserveGeneration(team.id), isError('LIMIT_EXCEEDED'));
    third.commit();
    assert.equal(store.usage(team.id), 3);

    store.setTeamLimit('acme', 4);
    store.reserveGeneration(team.id).commit();
    assert.equal(store.usage(team.id), 4);
  });

  test('a limit of 0 refuses everything; an unknown team is NOT_FOUND', () => {
    const team = store.createTeam('frozen', 0);
    assert.throws(() => store.reserveGeneration(team.id), isError('LIMIT_EXCEEDED', /limit of 0/));
    assert.throws(() => store.reserveGeneration(12345), isError('NOT_FOUND'));
    assert.throws(() => store.usage(team.id, '2025-13'), isError('INVALID_INPUT'));
  });

  test('the count is per UTC month', () => {
    clock.set('2025-01-31T23:59:59.000Z');
    const team = store.createTeam('acme', 2);
    store.reserveGeneration(team.id).commit();
    const lateJanuary = store.reserveGeneration(team.id);
    assert.throws(() => store.reserveGeneration(team.id), isError('LIMIT_EXCEEDED', /2025-01/));

    clock.set('2025-02-01T00:00:00.000Z');
    assert.equal(store.usage(team.id), 0);
    store.reserveGeneration(team.id).commit();
    assert.equal(store.usage(team.id), 1);
    // A render that started in January and failed in February gives January its unit back.
    lateJanuary.release();
    assert.equal(store.usage(team.id, '2025-01'), 1);
    assert.equal(store.usage(team.id, '2025-02'), 1);
    assert.equal(store.usage(team.id, '2024-12'), 0);
  });
});

describe('issued files', () => {
  const pdf = Buffer.from('%PDF-1.7 test');

  test('issue, open until expiry, purge', () => {
    const team = store.ensureTeam('local');
    const issued = store.issueFile(team.id, pdf, 60_000);
    assert.match(issued.token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(issued.expiresAt, '2025-01-15T12:01:00.000Z');
    assert.equal(path.dirname(issued.path), path.join(dataDir, 'files'));
    assert.match(path.basename(issued.path), /^[0-9a-f]+\.pdf$/);
    assert.ok(!issued.path.includes(issued.token));
    assert.deepEqual(fs.readFileSync(issued.path), pdf);

    assert.deepEqual(store.openIssuedFile(issued.token), { path: issued.path, bytes: pdf.length, expiresAt: issued.expiresAt });
    // Another last character (a fixed one would equal the real one once in 64 runs).
    const tampered = `${issued.token.slice(0, -1)}${issued.token.endsWith('A') ? 'B' : 'A'}`;
    assert.equal(store.openIssuedFile(tampered), undefined);
    assert.equal(store.openIssuedFile('short'), undefined);

    const longer = store.issueFile(team.id, pdf, 10 * 60_000);
    assert.equal(store.purgeExpiredFiles(), 0);

    clock.advance(60_000); // exactly at expiry: expired
    assert.equal(store.openIssuedFile(issued.token), undefined);
    assert.ok(store.openIssuedFile(longer.token));
    assert.equal(store.purgeExpiredFiles(), 1);
    assert.equal(fs.existsSync(issued.path), false);
    assert.ok(fs.existsSync(longer.path));
    assert.equal(store.purgeExpiredFiles(), 0);

    // The token survives a restart of the service.
    store.close();
    store = openStore({ dataDir, now: clock.now });
    assert.ok(store.openIssuedFile(longer.token));
  });

  test('rejects a bad lifetime', () => {
    const team = store.ensureTeam('local');
    assert.throws(() => store.issueFile(team.id, pdf, 0), isError('INVALID_INPUT'));
    assert.throws(() => store.issueFile(team.id, pdf, Number.NaN), isError('INVALID_INPUT'));
    assert.deepEqual(fs.readdirSync(path.join(dataDir, 'files')), []);
  });
});

describe('several processes on one data folder', () => {
  /**
   * Runs `body` in `count` child processes. Each opens the store only after all of them have
   * started (a file appears as the starting signal), so the work really overlaps, including the
   * first open of the folder. `body` sees `store` (on the test's current time), `job` and
   * `worker`, and returns JSON data.
   */
  async function runWorkers(count: number, job: object, body: string): Promise<unknown[]> {
    const goFile = path.join(path.dirname(dataDir), 'go');
    const script = `
      import fs from 'node:fs';
      const { openStore } = await import(${JSON.stringify(storeEntry)});
      const job = JSON.parse(process.env.STORE_TEST_JOB);
      const worker = Number(process.env.STORE_TEST_WORKER);
      process.stdout.write('ready\\n');
      while (!fs.existsSync(job.goFile)) await new Promise((r) => setTimeout(r, 2));
      const store = openStore({ dataDir: job.dataDir, now: () => new Date(job.now) });
      try {
        const result = await (async () => { ${body} })();
        process.stdout.write('RESULT ' + JSON.stringify(result) + '\\n');
      } finally {
        store.close();
      }
    `;
    const children = Array.from({ length: count }, (_, worker) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: projectRoot,
        env: { ...process.env, STORE_TEST_JOB: JSON.stringify({ ...job, dataDir, goFile, now: clock.now().toISOString() }), STORE_TEST_WORKER: String(worker) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let markReady: () => void;
      const ready = new Promise<void>((resolve) => (markReady = resolve));
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('ready\n')) markReady();
      });
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const done = new Promise<unknown>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', (code) => {
          markReady();
          const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
          if (code !== 0 || !line) reject(new Error(`worker ${worker} exited ${code}:\n${stderr}`));
          else resolve(JSON.parse(line.slice('RESULT '.length)));
        });
      });
      return { ready, done };
    });
    await Promise.all(children.map((c) => c.ready));
    fs.writeFileSync(goFile, '');
    // Wait for every worker, even after one failed, so none still writes while the folder is removed.
    const settled = await Promise.allSettled(children.map((c) => c.done));
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value);
  }

  test('publishing one id at once yields versions 1..N, each exactly once with its artifact', { timeout: 60_000 }, async () => {
    // A fresh folder: the workers also race to create the database and run the migrations.
    store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    const workers = 4;
    const perWorker = 5;
    const results = (await runWorkers(
      workers,
      { perWorker },
      `
        const team = store.ensureTeam('local');
        const published = [];
        for (let i = 0; i < job.perWorker; i++) {
          const artifact = Buffer.from('worker ' + worker + ' publish ' + i + ' ' + 'x'.repeat(1000 * (i + 1)));
          const v = store.publishTemplate(team.id, 'shared', artifact);
          published.push({ version: v.version, uuid: v.uuid, text: artifact.toString() });
        }
        return published;
      `,
    )) as { version: number; uuid: string; text: string }[][];

    store = openStore({ dataDir, now: clock.now });
    const team = store.getTeam('local')!;
    const all = results.flat();
    const total = workers * perWorker;
    assert.deepEqual(all.map((p) => p.version).sort((a, b) => a - b), Array.from({ length: total }, (_, i) => i + 1));
    assert.equal(new Set(all.map((p) => p.uuid)).size, 1, 'one template, one uuid');

    const details = store.getTemplate(team.id, 'shared')!;
    assert.deepEqual(details.versions.map((v) => v.version), Array.from({ length: total }, (_, i) => i + 1));
    for (const published of all) {
      const resolved = store.resolveTemplate(team.id, 'shared', published.version);
      assert.equal(store.readArtifact(resolved.artifactSha256).toString(), published.text);
    }
    assert.equal(store.listTeams().length, 1, 'ensureTeam raced without duplicates');
  });

  test('reserving against a limit of 10 with 50 attempts: exactly 10 succeed', { timeout: 60_000 }, async () => {
    const team = store.createTeam('acme', 10);
    const results = (await runWorkers(
      5,
      { attempts: 10, teamId: team.id },
      `
        let succeeded = 0;
        let refused = 0;
        for (let i = 0; i < job.attempts; i++) {
          try {
            store.reserveGeneration(job.teamId).commit();
            succeeded++;
          } catch (error) {
            if (error.code !== 'LIMIT_EXCEEDED') throw error;
            refused++;
          }
        }
        return { succeeded, refused };
      `,
    )) as { succeeded: number; refused: number }[];

    const succeeded = results.reduce((sum, r) => sum + r.succeeded, 0);
    const refused = results.reduce((sum, r) => sum + r.refused, 0);
    assert.equal(succeeded, 10);
    assert.equal(refused, 40);
    assert.equal(store.usage(team.id), 10);
  });
});
