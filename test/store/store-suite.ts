/**
 * The store port's suite: every rule of teams, keys, templates, the generation limit and
 * issued files, run against each adapter (sqlite.test.ts, postgres.test.ts) through the
 * same asynchronous interface. What only one adapter has (SQLite's data folder shared by
 * processes, PostgreSQL's leases and advisory lock) is tested beside it in that adapter's file.
 */
import { describe, test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { ImprintError } from '../../src/core/errors.js';
import type { Store } from '../../src/core/store/index.js';
import type { Clock } from '../../src/core/store/time.js';
import { requireWebhookSecret } from '../../src/core/webhooks/team-secret.js';

export const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A clock the test moves by hand. */
export function manualClock(start: string) {
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

export const isError = (code: string, pattern?: RegExp) => (error: unknown) => {
  assert.ok(error instanceof ImprintError, `expected an ImprintError, got ${String(error)}`);
  assert.equal(error.code, code);
  if (pattern) assert.match(error.message, pattern);
  return true;
};

/** One test's empty store: its own data folder (and, for PostgreSQL, its own database). */
export interface StoreEnv {
  dataDir: string;
  /** Opens (again) the store of this environment; the suite closes what it opened. */
  open(now: Clock): Promise<Store>;
  /**
   * The names of the objects of one kind (artifacts, files) wherever the adapter keeps them;
   * default: the entries of that folder in the data folder (temp files included).
   */
  objectNames?(kind: 'artifacts' | 'files'): Promise<string[]>;
  /** The hash stored for an API key, read from the database itself. */
  keyHash(keyId: string): Promise<string>;
  remove(): Promise<void>;
}

export interface StoreAdapter {
  name: string;
  fresh(): Promise<StoreEnv>;
}

export function storeSuite(adapter: StoreAdapter): void {
  let env: StoreEnv;
  let dataDir: string;
  let objectNames: (kind: 'artifacts' | 'files') => Promise<string[]>;
  let clock: ReturnType<typeof manualClock>;
  let store: Store;

  beforeEach(async () => {
    env = await adapter.fresh();
    dataDir = env.dataDir;
    objectNames = env.objectNames ? (kind) => env.objectNames!(kind) : async (kind) => fs.readdirSync(path.join(dataDir, kind));
    clock = manualClock('2025-01-15T12:00:00.000Z');
    store = await env.open(clock.now);
  });

  afterEach(async () => {
    await store.close();
    await env.remove();
  });

  describe(`${adapter.name}: opening`, () => {
    test('reopening keeps the data', async () => {
      const team = await store.ensureTeam('local');
      await store.publishTemplate(team.id, 'invoice', Buffer.from('v1'));
      await store.close();
      store = await env.open(clock.now);
      assert.equal((await store.resolveTemplate(team.id, 'invoice')).version, 1);
    });

    test('enforces foreign keys', async () => {
      await assert.rejects(() => store.publishTemplate(999, 'x', Buffer.from('a')), isError('NOT_FOUND', /No team with id 999/));
    });
  });

  describe(`${adapter.name}: teams`, () => {
    test('ensureTeam gets or creates, createTeam refuses duplicates', async () => {
      const local = await store.ensureTeam('local');
      assert.equal(local.name, 'local');
      assert.equal(local.generationLimit, 1000);
      assert.equal(local.createdAt, '2025-01-15T12:00:00.000Z');
      assert.deepEqual(await store.ensureTeam('local', 5), local);
      await assert.rejects(() => store.createTeam('local'), isError('INVALID_INPUT', /already exists/));
      const acme = await store.createTeam('acme.co_2-x', 25);
      assert.equal(acme.generationLimit, 25);
      assert.deepEqual(await store.getTeam('acme.co_2-x'), acme);
      assert.equal(await store.getTeam('nobody'), undefined);
    });

    test('validates names and limits', async () => {
      for (const name of ['', 'a b', 'x'.repeat(65), 'é', 'a/b']) {
        await assert.rejects(() => store.createTeam(name), isError('INVALID_INPUT', /Invalid team name/), name);
      }
      assert.ok(await store.createTeam('x'.repeat(64)));
      for (const limit of [-1, 1.5, Number.NaN, Infinity]) {
        await assert.rejects(() => store.createTeam('t', limit), isError('INVALID_INPUT', /Invalid generation limit/));
      }
    });

    test('setTeamLimit and listTeams with this month usage', async () => {
      const a = await store.createTeam('a');
      await store.createTeam('b', 0);
      assert.equal((await store.setTeamLimit('a', 2)).generationLimit, 2);
      await assert.rejects(() => store.setTeamLimit('nobody', 2), isError('NOT_FOUND', /No team named "nobody"/));
      await assert.rejects(() => store.setTeamLimit('a', -3), isError('INVALID_INPUT'));
      await (await store.reserveGeneration(a.id)).commit();
      assert.deepEqual(
        (await store.listTeams()).map((t) => [t.name, t.generationLimit, t.usedThisMonth]),
        [
          ['a', 2, 1],
          ['b', 0, 0],
        ],
      );
      clock.set('2025-02-01T00:00:00.000Z');
      assert.equal((await store.listTeams())[0]!.usedThisMonth, 0);
    });
  });

  describe(`${adapter.name}: API keys`, () => {
    test('create, list, authenticate, revoke', async () => {
      const team = await store.createTeam('acme');
      const { keyId, key } = await store.createApiKey('acme');
      assert.match(keyId, /^key_[0-9a-f]+$/);
      assert.match(key, /^imp_[A-Za-z0-9_-]{43}$/);
      assert.deepEqual((await store.authenticateKey(key))?.team, team);

      const listed = await store.listApiKeys('acme');
      assert.deepEqual(listed, [{ id: keyId, createdAt: '2025-01-15T12:00:00.000Z', revokedAt: null }]);
      assert.ok(!JSON.stringify(listed).includes(key));

      // Only the hash reaches the disk.
      await store.close();
      assert.equal(await env.keyHash(keyId), sha256(key));
      store = await env.open(clock.now);

      clock.advance(1000);
      await store.revokeApiKey(keyId);
      await store.revokeApiKey(keyId); // idempotent
      assert.equal(await store.authenticateKey(key), undefined);
      assert.deepEqual((await store.listApiKeys('acme'))[0]!.revokedAt, '2025-01-15T12:00:01.000Z');
    });

    test('unknown, malformed and foreign keys', async () => {
      await store.createTeam('acme');
      const { key } = await store.createApiKey('acme');
      assert.equal(await store.authenticateKey(`imp_${'A'.repeat(43)}`), undefined);
      assert.equal(await store.authenticateKey(key.slice(0, -1)), undefined);
      assert.equal(await store.authenticateKey(key.slice(4)), undefined);
      assert.equal(await store.authenticateKey(''), undefined);
      assert.equal(await store.authenticateKey(undefined as unknown as string), undefined);
      await assert.rejects(() => store.revokeApiKey('key_nope'), isError('NOT_FOUND', /No API key with id "key_nope"/));
      await assert.rejects(() => store.createApiKey('nobody'), isError('NOT_FOUND'));
      await assert.rejects(() => store.listApiKeys('nobody'), isError('NOT_FOUND'));
    });

    test('each team authenticates with its own keys', async () => {
      const a = await store.createTeam('a');
      const b = await store.createTeam('b');
      assert.equal((await store.authenticateKey((await store.createApiKey('a')).key))?.team.id, a.id);
      assert.equal((await store.authenticateKey((await store.createApiKey('b')).key))?.team.id, b.id);
    });
  });

  describe(`${adapter.name}: templates`, () => {
    test('each publish is a new immutable version with a readable artifact', async () => {
      const team = await store.ensureTeam('local');
      const schema = { type: 'object', properties: { n: { type: 'number' } } };
      const v1 = await store.publishTemplate(team.id, 'invoice', Buffer.from('bundle one'), { propsSchema: schema, sourceName: 'Invoice.tsx' });
      clock.advance(60_000);
      const v2 = await store.publishTemplate(team.id, 'invoice', Buffer.from('bundle two'));
      clock.advance(60_000);
      const v3 = await store.publishTemplate(team.id, 'invoice', Buffer.from('bundle one'));

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

      assert.ok((await objectNames('artifacts')).includes(v2.artifactSha256));
      assert.equal((await store.readArtifact(v2.artifactSha256)).toString(), 'bundle two');
      assert.equal((await store.readArtifact(v3.artifactSha256)).toString(), 'bundle one');

      const latest = await store.resolveTemplate(team.id, 'invoice');
      assert.deepEqual(latest, { id: 'invoice', uuid: v1.uuid, version: 3, artifactSha256: v3.artifactSha256, propsSchema: null, publishedAt: v3.publishedAt });
      assert.deepEqual((await store.resolveTemplate(team.id, v1.uuid, 1)).propsSchema, schema);
      assert.equal((await store.resolveTemplate(team.id, 'invoice', 2)).artifactSha256, sha256('bundle two'));

      assert.deepEqual(await store.getTemplate(team.id, v1.uuid), {
        id: 'invoice',
        uuid: v1.uuid,
        createdAt: '2025-01-15T12:00:00.000Z',
        versions: [
          { version: 1, publishedAt: '2025-01-15T12:00:00.000Z', bytes: 10, artifactSha256: sha256('bundle one'), sourceName: 'Invoice.tsx', hasSchema: true, publishedBy: null, rollbackOf: null },
          { version: 2, publishedAt: '2025-01-15T12:01:00.000Z', bytes: 10, artifactSha256: sha256('bundle two'), sourceName: null, hasSchema: false, publishedBy: null, rollbackOf: null },
          { version: 3, publishedAt: '2025-01-15T12:02:00.000Z', bytes: 10, artifactSha256: sha256('bundle one'), sourceName: null, hasSchema: false, publishedBy: null, rollbackOf: null },
        ],
      });
      assert.deepEqual(await store.getTemplate(team.id, 'invoice'), await store.getTemplate(team.id, v1.uuid));
    });

    test('lists templates by id with their latest version', async () => {
      const team = await store.ensureTeam('local');
      await store.publishTemplate(team.id, 'report', Buffer.from('r1'));
      clock.advance(1000);
      const invoice = await store.publishTemplate(team.id, 'invoice', Buffer.from('i1'));
      clock.advance(1000);
      await store.publishTemplate(team.id, 'report', Buffer.from('r2'));
      const list = await store.listTemplates(team.id);
      assert.deepEqual(
        list.map((t) => [t.id, t.latestVersion, t.publishedAt, t.createdAt]),
        [
          ['invoice', 1, '2025-01-15T12:00:01.000Z', '2025-01-15T12:00:01.000Z'],
          ['report', 2, '2025-01-15T12:00:02.000Z', '2025-01-15T12:00:00.000Z'],
        ],
      );
      assert.equal(list[0]!.uuid, invoice.uuid);
    });

    test('clear errors for unknown templates and versions', async () => {
      const team = await store.ensureTeam('local');
      await store.publishTemplate(team.id, 'invoice', Buffer.from('a'));
      await store.publishTemplate(team.id, 'invoice', Buffer.from('b'));
      await assert.rejects(
        () => store.resolveTemplate(team.id, 'nope'),
        isError('NOT_FOUND', /^No template "nope" in this team\. Run `imprint list` to see the published ids\.$/),
      );
      await assert.rejects(() => store.resolveTemplate(team.id, 'invoice', 7), isError('NOT_FOUND', /has no version 7; its versions are 1-2\..*latest \(2\)/));
      await assert.rejects(() => store.resolveTemplate(team.id, 'invoice', 0), isError('INVALID_INPUT'));
      assert.equal(await store.getTemplate(team.id, 'nope'), undefined);
    });

    test('validates the id, the artifact and the schema', async () => {
      const team = await store.ensureTeam('local');
      for (const id of ['', '../x', '.hidden', 'a b', 'x'.repeat(129)]) {
        await assert.rejects(() => store.publishTemplate(team.id, id, Buffer.from('a')), isError('INVALID_INPUT', /Invalid template id/), id);
      }
      await assert.rejects(() => store.publishTemplate(team.id, 'x', Buffer.alloc(0)), isError('INVALID_INPUT', /empty artifact/));
      await assert.rejects(
        () => store.publishTemplate(team.id, 'x', Buffer.from('a'), { propsSchema: [] as unknown as object }),
        isError('INVALID_INPUT', /props schema/),
      );
      assert.deepEqual(await store.listTemplates(team.id), []);
    });

    test("another team's template is exactly like an unknown one", async () => {
      const a = await store.createTeam('a');
      const b = await store.createTeam('b');
      const mine = await store.publishTemplate(a.id, 'invoice', Buffer.from('a-invoice'));
      for (const ref of ['invoice', mine.uuid]) {
        assert.equal(await store.getTemplate(b.id, ref), undefined);
        assert.equal(await store.deleteTemplate(b.id, ref), false);
        await assert.rejects(() => store.resolveTemplate(b.id, ref), isError('NOT_FOUND', new RegExp(`^No template "${ref}" in this team`)));
      }
      assert.deepEqual(await store.listTemplates(b.id), []);

      // The same id in another team is another template, with its own uuid and numbering.
      const theirs = await store.publishTemplate(b.id, 'invoice', Buffer.from('b-invoice'));
      assert.equal(theirs.version, 1);
      assert.notEqual(theirs.uuid, mine.uuid);
      assert.equal((await store.readArtifact((await store.resolveTemplate(a.id, 'invoice')).artifactSha256)).toString(), 'a-invoice');
      assert.equal((await store.readArtifact((await store.resolveTemplate(b.id, 'invoice')).artifactSha256)).toString(), 'b-invoice');
    });

    test('delete hides a template; publishing the id again revives it and continues the numbering', async () => {
      const team = await store.ensureTeam('local');
      const v1 = await store.publishTemplate(team.id, 'invoice', Buffer.from('one'));
      await store.publishTemplate(team.id, 'invoice', Buffer.from('two'));
      await store.publishTemplate(team.id, 'other', Buffer.from('other'));

      assert.equal(await store.deleteTemplate(team.id, v1.uuid), true);
      assert.equal(await store.deleteTemplate(team.id, 'invoice'), false, 'already deleted');
      assert.deepEqual((await store.listTemplates(team.id)).map((t) => t.id), ['other']);
      assert.equal(await store.getTemplate(team.id, 'invoice'), undefined);
      assert.equal(await store.getTemplate(team.id, v1.uuid), undefined);
      await assert.rejects(() => store.resolveTemplate(team.id, 'invoice'), isError('NOT_FOUND'));
      // Soft delete: the artifacts stay.
      assert.equal((await store.readArtifact(v1.artifactSha256)).toString(), 'one');

      const v3 = await store.publishTemplate(team.id, 'invoice', Buffer.from('three'));
      assert.equal(v3.version, 3);
      assert.equal(v3.uuid, v1.uuid);
      assert.deepEqual((await store.getTemplate(team.id, 'invoice'))!.versions.map((v) => v.version), [1, 2, 3]);
      assert.deepEqual((await store.listTemplates(team.id)).map((t) => t.id), ['invoice', 'other']);
    });

    test('a damaged artifact is reported, and publishing again repairs it', async () => {
      const team = await store.ensureTeam('local');
      const v1 = await store.publishTemplate(team.id, 'invoice', Buffer.from('good bytes'));
      const key = `artifacts/${v1.artifactSha256}`;
      await store.objects.put(key, Buffer.from('bad'));
      await assert.rejects(() => store.readArtifact(v1.artifactSha256), isError('INTERNAL', /damaged/));
      await store.publishTemplate(team.id, 'invoice', Buffer.from('good bytes'));
      assert.equal((await store.readArtifact(v1.artifactSha256)).toString(), 'good bytes');
      await store.objects.delete(key);
      await assert.rejects(() => store.readArtifact(v1.artifactSha256), isError('INTERNAL', /missing/));
      await assert.rejects(() => store.readArtifact('../imprint.db'), isError('INVALID_INPUT'));
    });

    test('no temp files are left after publishing', async () => {
      const team = await store.ensureTeam('local');
      await store.publishTemplate(team.id, 'invoice', Buffer.from('x'));
      assert.deepEqual(await objectNames('artifacts'), [sha256('x')]);
    });
  });

  describe(`${adapter.name}: generation limit`, () => {
    test('reserve up to the limit; commit keeps, release gives back; both idempotent', async () => {
      const team = await store.createTeam('acme', 3);
      const first = await store.reserveGeneration(team.id);
      const second = await store.reserveGeneration(team.id);
      const third = await store.reserveGeneration(team.id);
      assert.equal(await store.usage(team.id), 3);
      await assert.rejects(
        () => store.reserveGeneration(team.id),
        isError('LIMIT_EXCEEDED', /Team "acme" has used all 3 generations allowed for 2025-01 \(UTC\)\..*raise the limit/),
      );
      assert.equal(await store.usage(team.id), 3, 'a refused reservation counts nothing');

      await first.commit();
      await first.commit();
      await first.release(); // after commit: no effect
      await second.release();
      await second.release(); // a second release does not give back twice
      await second.commit();
      assert.equal(await store.usage(team.id), 2);
      await (await store.reserveGeneration(team.id)).commit();
      await assert.rejects(() => store.reserveGeneration(team.id), isError('LIMIT_EXCEEDED'));
      await third.commit();
      assert.equal(await store.usage(team.id), 3);

      await store.setTeamLimit('acme', 4);
      await (await store.reserveGeneration(team.id)).commit();
      assert.equal(await store.usage(team.id), 4);
    });

    test('a limit of 0 refuses everything; an unknown team is NOT_FOUND', async () => {
      const team = await store.createTeam('frozen', 0);
      await assert.rejects(() => store.reserveGeneration(team.id), isError('LIMIT_EXCEEDED', /limit of 0/));
      await assert.rejects(() => store.reserveGeneration(12345), isError('NOT_FOUND'));
      await assert.rejects(() => store.usage(team.id, '2025-13'), isError('INVALID_INPUT'));
    });

    test('the count is per UTC month', async () => {
      clock.set('2025-01-31T23:59:59.000Z');
      const team = await store.createTeam('acme', 2);
      await (await store.reserveGeneration(team.id)).commit();
      const lateJanuary = await store.reserveGeneration(team.id);
      await assert.rejects(() => store.reserveGeneration(team.id), isError('LIMIT_EXCEEDED', /2025-01/));

      clock.set('2025-02-01T00:00:00.000Z');
      assert.equal(await store.usage(team.id), 0);
      await (await store.reserveGeneration(team.id)).commit();
      assert.equal(await store.usage(team.id), 1);
      // A render that started in January and failed in February gives January its unit back.
      await lateJanuary.release();
      assert.equal(await store.usage(team.id, '2025-01'), 1);
      assert.equal(await store.usage(team.id, '2025-02'), 1);
      assert.equal(await store.usage(team.id, '2024-12'), 0);
    });
  });

  describe(`${adapter.name}: issued files`, () => {
    const pdf = Buffer.from('%PDF-1.7 test');

    test('issue, open until expiry, purge', async () => {
      const team = await store.ensureTeam('local');
      const issued = await store.issueFile(team.id, pdf, 60_000);
      assert.match(issued.token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(issued.expiresAt, '2025-01-15T12:01:00.000Z');
      const [name] = await objectNames('files');
      assert.match(name!, /^[0-9a-f]+\.pdf$/);
      assert.ok(!name!.includes(issued.token), 'the object is not named by the token');
      // Objects in the data folder are files, named to embedded mode by their path.
      if (issued.path) {
        assert.equal(issued.path, path.join(dataDir, 'files', name!));
        assert.deepEqual(fs.readFileSync(issued.path), pdf);
      }

      const opened = await store.openIssuedFile(issued.token);
      assert.deepEqual({ ...opened, open: undefined }, { ...(issued.path ? { path: issued.path } : {}), bytes: pdf.length, expiresAt: issued.expiresAt, open: undefined });
      assert.deepEqual(await buffer(await opened!.open()), pdf, 'its stream gives the PDF');
      // Another last character (a fixed one would equal the real one once in 64 runs).
      const tampered = `${issued.token.slice(0, -1)}${issued.token.endsWith('A') ? 'B' : 'A'}`;
      assert.equal(await store.openIssuedFile(tampered), undefined);
      assert.equal(await store.openIssuedFile('short'), undefined);

      const longer = await store.issueFile(team.id, pdf, 10 * 60_000);
      assert.equal(await store.purgeExpiredFiles(), 0);
      const longerName = (await objectNames('files')).find((other) => other !== name);

      clock.advance(60_000); // exactly at expiry: expired
      assert.equal(await store.openIssuedFile(issued.token), undefined);
      assert.ok(await store.openIssuedFile(longer.token));
      assert.equal(await store.purgeExpiredFiles(), 1);
      assert.deepEqual(await objectNames('files'), [longerName], 'the expired PDF is gone, the other stays');
      assert.equal(await store.purgeExpiredFiles(), 0);

      // The token survives a restart of the service.
      await store.close();
      store = await env.open(clock.now);
      assert.ok(await store.openIssuedFile(longer.token));
    });

    test('rejects a bad lifetime', async () => {
      const team = await store.ensureTeam('local');
      await assert.rejects(() => store.issueFile(team.id, pdf, 0), isError('INVALID_INPUT'));
      await assert.rejects(() => store.issueFile(team.id, pdf, Number.NaN), isError('INVALID_INPUT'));
      assert.deepEqual(await objectNames('files'), []);
    });

    test('a team that does not exist: NOT_FOUND, and no PDF left behind', async () => {
      await assert.rejects(() => store.issueFile(4242, pdf, 60_000), isError('NOT_FOUND', /No team with id 4242/));
      assert.deepEqual(await objectNames('files'), []);
    });
  });

  describe(`${adapter.name}: webhook signing secrets`, () => {
    test('none until made; rotating makes a whsec_ secret, readable back, per team; the next rotation replaces it', async () => {
      const acme = await store.createTeam('acme');
      const other = await store.createTeam('other');
      assert.equal(await store.getWebhookSecret(acme.id), undefined);

      const first = await store.rotateWebhookSecret(acme.id);
      assert.match(first, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(await store.getWebhookSecret(acme.id), first);
      assert.equal(await store.getWebhookSecret(other.id), undefined, "another team's secret is its own");

      const second = await store.rotateWebhookSecret(acme.id);
      assert.notEqual(second, first);
      assert.equal(await store.getWebhookSecret(acme.id), second, 'the old secret signs no more');

      await store.close();
      store = await env.open(clock.now);
      assert.equal(await store.getWebhookSecret(acme.id), second, 'kept across a reopen');
    });

    test('a job with a webhook needs the secret made first: refused with how to make one', async () => {
      const acme = await store.createTeam('acme');
      await assert.rejects(requireWebhookSecret(store, acme.id), isError('INVALID_INPUT', /POST \/api\/webhook-secret.*imprint team webhook-secret/));
      const secret = await store.rotateWebhookSecret(acme.id);
      assert.equal(await requireWebhookSecret(store, acme.id), secret);
    });

    test('an unknown team has no secret and gets none', async () => {
      assert.equal(await store.getWebhookSecret(4242), undefined);
      await assert.rejects(store.rotateWebhookSecret(4242), isError('NOT_FOUND', /No team with id 4242/));
    });
  });

  describe(`${adapter.name}: signing keys`, () => {
    test('none until stored; stored per team, replaced by the next, kept across a reopen, removed; an unknown team is NOT_FOUND', async () => {
      const acme = await store.createTeam('acme');
      const other = await store.createTeam('other');
      assert.equal(await store.getSigningKey(acme.id), undefined);
      await store.setSigningKey(acme.id, { sealed: 'v1.first', subject: 'CN=Ada', notAfter: '2030-01-01T00:00:00.000Z' });
      await store.setSigningKey(acme.id, { sealed: 'v1.second', subject: 'CN=Bob', notAfter: '2031-01-01T00:00:00.000Z' });
      assert.deepEqual(await store.getSigningKey(acme.id), { sealed: 'v1.second', subject: 'CN=Bob', notAfter: '2031-01-01T00:00:00.000Z', createdAt: clock.now().toISOString() });
      assert.equal(await store.getSigningKey(other.id), undefined, "another team's key is its own");
      await store.close();
      store = await env.open(clock.now);
      assert.equal((await store.getSigningKey(acme.id))?.sealed, 'v1.second');
      assert.equal(await store.removeSigningKey(acme.id), true);
      assert.equal(await store.removeSigningKey(acme.id), false);
      assert.equal(await store.getSigningKey(acme.id), undefined);
      await assert.rejects(store.setSigningKey(4242, { sealed: 'v1.x', subject: 'CN=X', notAfter: '2030-01-01T00:00:00.000Z' }), isError('NOT_FOUND', /No team with id 4242/));
    });
  });

  describe(`${adapter.name}: at the same time`, () => {
    test('60 reservations at once from 3 connections against a limit of 10: exactly 10 are granted', async () => {
      const team = await store.createTeam('crowd', 10);
      const others = [await env.open(clock.now), await env.open(clock.now)];
      try {
        const stores = [store, ...others];
        const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => stores[i % stores.length]!.reserveGeneration(team.id)));
        const granted = results.filter((r) => r.status === 'fulfilled');
        const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        for (const r of refused) assert.equal((r.reason as ImprintError).code, 'LIMIT_EXCEEDED', String(r.reason));
        assert.equal(granted.length, 10);
        assert.equal(refused.length, 50);
        assert.equal(await store.usage(team.id), 10);
        // Half fail and give their unit back; the other half count.
        await Promise.all(granted.map((r, i) => (i % 2 ? r.value.release() : r.value.commit())));
        assert.equal(await others[0]!.usage(team.id), 5);
      } finally {
        await Promise.all(others.map((other) => other.close()));
      }
    });

    test('publishing one id at once from 3 connections numbers the versions 1..N, each once', async () => {
      const team = await store.ensureTeam('local');
      const others = [await env.open(clock.now), await env.open(clock.now)];
      try {
        const stores = [store, ...others];
        const published = await Promise.all(
          Array.from({ length: 12 }, (_, i) => stores[i % stores.length]!.publishTemplate(team.id, 'shared', Buffer.from(`bundle ${i}`))),
        );
        assert.deepEqual(published.map((p) => p.version).sort((a, b) => a - b), Array.from({ length: 12 }, (_, i) => i + 1));
        assert.equal(new Set(published.map((p) => p.uuid)).size, 1, 'one template, one uuid');
        for (const [i, p] of published.entries()) {
          const resolved = await store.resolveTemplate(team.id, 'shared', p.version);
          assert.equal((await store.readArtifact(resolved.artifactSha256)).toString(), `bundle ${i}`);
        }
      } finally {
        await Promise.all(others.map((other) => other.close()));
      }
    });
  });
}
