/**
 * The dashboard's records (src/core/store/dashboard/store.ts) against each adapter: sessions with
 * idle expiry and their key's revocation, login codes spent once, team-scoped key revocation,
 * test keys, a key's last use, documents per day.
 */
import { describe, test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/core/store/index.js';
import { manualClock, type StoreAdapter, type StoreEnv } from './store-suite.js';

const HOUR = 3_600_000;

export function dashboardStoreSuite(adapter: StoreAdapter): void {
  describe(`dashboard records (${adapter.name})`, () => {
    let env: StoreEnv;
    let clock: ReturnType<typeof manualClock>;
    let store: Store;

    beforeEach(async () => {
      env = await adapter.fresh();
      clock = manualClock('2025-01-15T12:00:00.000Z');
      store = await env.open(clock.now);
    });
    afterEach(async () => {
      await store.close();
      await env.remove();
    });

    test('a session lives while used, ends after its idle time, when ended, and when its key is revoked', async () => {
      const team = await store.createTeam('acme');
      const { keyId } = await store.createApiKey('acme');
      const { token, csrf } = await store.dashboard.createSession(team.id, keyId);
      const session = await store.dashboard.getSession(token, 12 * HOUR);
      assert.equal(session?.team.name, 'acme');
      assert.equal(session?.csrf, csrf);
      assert.equal(session?.keyId, keyId);
      clock.advance(11 * HOUR);
      assert.ok(await store.dashboard.getSession(token, 12 * HOUR), 'used within the idle time');
      clock.advance(11 * HOUR);
      assert.ok(await store.dashboard.getSession(token, 12 * HOUR), 'the last use restarted the idle clock');
      clock.advance(13 * HOUR);
      assert.equal(await store.dashboard.getSession(token, 12 * HOUR), undefined, 'idle too long');

      const second = await store.dashboard.createSession(team.id, keyId);
      await store.dashboard.endSession(second.token);
      assert.equal(await store.dashboard.getSession(second.token, 12 * HOUR), undefined);

      const third = await store.dashboard.createSession(team.id, keyId);
      await store.revokeApiKey(keyId);
      assert.equal(await store.dashboard.getSession(third.token, 12 * HOUR), undefined);
      assert.equal(await store.dashboard.getSession('not-a-token', 12 * HOUR), undefined);
    });

    test("keys: test keys, last use, and revocation only within the team", async () => {
      const acme = await store.createTeam('acme');
      const other = await store.createTeam('other');
      const real = await store.dashboard.createKey(acme.id);
      const testKey = await store.dashboard.createKey(acme.id, { test: true });
      const others = await store.createApiKey('other');
      assert.equal((await store.authenticateKey(testKey.key))?.team.name, 'acme');
      assert.equal(await store.dashboard.isTestKey(testKey.keyId), true);
      assert.equal(await store.dashboard.isTestKey(real.keyId), false);
      await store.dashboard.touchKey(real.keyId);
      const keys = await store.dashboard.listKeys(acme.id);
      assert.deepEqual(keys.map((key) => [key.id, key.test, key.lastUsedAt]).sort((a, b) => Number(a[1]) - Number(b[1])), [
        [real.keyId, false, '2025-01-15T12:00:00.000Z'],
        [testKey.keyId, true, null],
      ]);
      assert.equal(await store.dashboard.revokeKey(acme.id, others.keyId), false, "another team's key is no key of this team");
      assert.ok(await store.authenticateKey((await store.createApiKey('other')).key));
      assert.equal((await store.dashboard.listKeys(other.id)).every((key) => key.revokedAt === null), true);
      assert.equal(await store.dashboard.revokeKey(acme.id, real.keyId), true);
      assert.equal(await store.authenticateKey(real.key), undefined);
    });

    test('a login code: pending, approved, claimed once; an expired one gives nothing', async () => {
      const team = await store.createTeam('acme');
      const code = await store.dashboard.createLoginCode('ana@laptop', 10 * 60_000);
      assert.match(code.code, /^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      assert.equal((await store.dashboard.getLoginCode(code.code))?.machine, 'ana@laptop');
      assert.deepEqual(await store.dashboard.claimLoginCode(code.pollToken), { state: 'pending' });
      assert.equal(await store.dashboard.approveLoginCode(code.code, team.id), true);
      assert.equal(await store.dashboard.approveLoginCode(code.code, team.id), false, 'approved once');
      const claim = await store.dashboard.claimLoginCode(code.pollToken);
      assert.equal(claim?.state, 'approved');
      assert.ok(claim?.state === 'approved' && (await store.authenticateKey(claim.key.key))?.team.name === 'acme');
      assert.deepEqual(await store.dashboard.claimLoginCode(code.pollToken), { state: 'expired' }, 'spent');
      assert.equal((await store.dashboard.getLoginCode(code.code))?.state, 'claimed');
      assert.equal(await store.dashboard.claimLoginCode('unknown'), undefined);

      const late = await store.dashboard.createLoginCode('ci', 10 * 60_000);
      clock.advance(10 * 60_000 + 1);
      assert.equal(await store.dashboard.approveLoginCode(late.code, team.id), false);
      assert.equal((await store.dashboard.getLoginCode(late.code))?.state, 'expired');
      assert.deepEqual(await store.dashboard.claimLoginCode(late.pollToken), { state: 'expired' });
    });

    test("a test key's session is in test mode, and a code it approves gives a test key (issue 41)", async () => {
      const team = await store.createTeam('acme');
      const live = await store.createApiKey('acme');
      const testKey = await store.dashboard.createKey(team.id, { test: true });
      const liveSession = await store.dashboard.createSession(team.id, live.keyId);
      const testSession = await store.dashboard.createSession(team.id, testKey.keyId);
      assert.equal((await store.dashboard.getSession(liveSession.token, 12 * HOUR))?.test, false);
      assert.equal((await store.dashboard.getSession(testSession.token, 12 * HOUR))?.test, true);

      const asked = await store.dashboard.createLoginCode('contractor@laptop', 10 * 60_000);
      assert.equal(await store.dashboard.approveLoginCode(asked.code, team.id, { test: true }), true);
      const claim = await store.dashboard.claimLoginCode(asked.pollToken);
      assert.ok(claim?.state === 'approved' && claim.test, 'the claim says it is a test key');
      assert.equal(await store.dashboard.isTestKey(claim.key.keyId), true);
      const plain = await store.dashboard.createLoginCode('ana@laptop', 10 * 60_000);
      assert.equal(await store.dashboard.approveLoginCode(plain.code, team.id), true);
      const liveClaim = await store.dashboard.claimLoginCode(plain.pollToken);
      assert.ok(liveClaim?.state === 'approved' && !liveClaim.test);
      assert.equal(await store.dashboard.isTestKey(liveClaim.key.keyId), false);
    });

    test('ids and text holding a NUL byte: unknown ids, a machine name stored with U+FFFD (PostgreSQL text holds no NUL)', async () => {
      const team = await store.createTeam('acme');
      const { keyId } = await store.createApiKey('acme');
      assert.equal(await store.dashboard.revokeKey(team.id, `${keyId}\u0000`), false);
      const { code } = await store.dashboard.createLoginCode('me@laptop\u0000x', HOUR);
      assert.equal((await store.dashboard.getLoginCode(code))?.machine, 'me@laptop\uFFFDx');
      assert.equal(await store.dashboard.getLoginCode(`${code}\u0000`), undefined);
      assert.equal(await store.dashboard.approveLoginCode(`${code}\u0000`, team.id), false);
      assert.equal((await store.dashboard.getLoginCode(code))?.state, 'pending');
    });

    test('documents per day add up per team', async () => {
      const acme = await store.createTeam('acme');
      const other = await store.createTeam('other');
      await store.dashboard.countDay(acme.id, '2025-01-14', 1);
      await store.dashboard.countDay(acme.id, '2025-01-15', 2);
      await store.dashboard.countDay(acme.id, '2025-01-15', 1);
      await store.dashboard.countDay(other.id, '2025-01-15', 7);
      assert.deepEqual(await store.dashboard.dailyUsage(acme.id, '2025-01-15'), [{ day: '2025-01-15', count: 3 }]);
      assert.deepEqual(await store.dashboard.dailyUsage(acme.id, '2025-01-01'), [{ day: '2025-01-14', count: 1 }, { day: '2025-01-15', count: 3 }]);
    });

    test('wrong sign-in keys: counted per address in one window from the first failure; a failure after it opens a new one', async () => {
      const WINDOW = 15 * 60_000;
      const { signIns } = store.dashboard;
      assert.equal(await signIns.current('10.0.0.1', WINDOW), undefined);
      await Promise.all([signIns.fail('10.0.0.1', WINDOW), signIns.fail('10.0.0.1', WINDOW)]);
      clock.advance(60_000);
      await signIns.fail('10.0.0.1', WINDOW);
      await signIns.fail('10.0.0.2', WINDOW);
      const opened = Date.parse('2025-01-15T12:00:00.000Z');
      assert.deepEqual(await signIns.current('10.0.0.1', WINDOW), { failures: 3, endsAt: opened + WINDOW }, 'both failures at once counted');
      assert.deepEqual(await signIns.current('10.0.0.2', WINDOW), { failures: 1, endsAt: opened + 60_000 + WINDOW });
      clock.advance(WINDOW - 60_000);
      assert.equal(await signIns.current('10.0.0.1', WINDOW), undefined, 'the window ended');
      await signIns.fail('10.0.0.1', WINDOW);
      assert.deepEqual(await signIns.current('10.0.0.1', WINDOW), { failures: 1, endsAt: opened + 2 * WINDOW });
      assert.deepEqual(await signIns.current('10.0.0.2', WINDOW), { failures: 1, endsAt: opened + 60_000 + WINDOW }, "another address's window runs on");
    });
  });
}
