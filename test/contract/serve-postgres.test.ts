/**
 * `imprint serve --database` as an operator runs it: the built CLI as child processes on a
 * throwaway PostgreSQL cluster. The operator commands make the team and its key in the
 * database, the service publishes and renders from it, and a restart of the service finds the
 * template and the count where they were.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { request } from 'undici';
import { runCli, tempDir } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { describeReply, fixtureArtifact, replyOf } from './helpers/service.js';

let cluster: PostgresCluster;
let databaseUrl: string;
let serve: ServeProcess | undefined;
const dataDir = tempDir('imprint-serve-pg-');

before(async () => {
  cluster = await startPostgres();
  databaseUrl = await cluster.createDatabase();
});

after(async () => {
  if (serve) await serve.stop();
  await cluster?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: 'GET' | 'POST', urlPath: string, key: string, body?: unknown) {
  const response = await request(`${serve!.url}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return replyOf(response);
}

test('serve --database: publish and render on PostgreSQL; a restart keeps the template and the count', { timeout: 180_000 }, async () => {
  // The operator's commands: --database for one, IMPRINT_DATABASE_URL for the other.
  const team = await runCli(['team', 'create', 'acme', '--limit', '5', '--database', databaseUrl], { env: { IMPRINT_DATA_DIR: dataDir } });
  assert.equal(team.code, 0, team.describe());
  const created = await runCli(['key', 'create', '--team', 'acme'], { env: { IMPRINT_DATA_DIR: dataDir, IMPRINT_DATABASE_URL: databaseUrl } });
  assert.equal(created.code, 0, created.describe());
  const key = created.stdout.toString().trim();
  assert.match(key, /^imp_/);

  serve = await startServeProcess({ dataDir, args: ['--database', databaseUrl] });
  assert.match(serve.output(), /PostgreSQL 127\.0\.0\.1:\d+\/imprint_test_/);
  const artifact = await fixtureArtifact('Greeting.tsx');
  const published = await call('POST', '/api/templates', key, { id: 'greeting', artifact });
  assert.equal(published.status, 201, describeReply(published));
  const rendered = await call('POST', '/api/documents/greeting', key, { props: { name: 'Ada' } });
  assert.equal(rendered.status, 200, describeReply(rendered));
  assert.match(pdfText(rendered.body), /Hello Ada/);
  // The records are in PostgreSQL: the data folder holds only the artifact, no SQLite database.
  assert.equal(fs.existsSync(path.join(dataDir, 'imprint.db')), false);

  assert.equal(await serve.stop(), 0, serve.output());
  serve = await startServeProcess({ dataDir, env: { IMPRINT_DATABASE_URL: databaseUrl } });
  const listed = await call('GET', '/api/templates', key);
  assert.equal(listed.status, 200, describeReply(listed));
  assert.deepEqual(
    listed.json().templates.map((t: { id: string; latestVersion: number }) => [t.id, t.latestVersion]),
    [['greeting', 1]],
  );
  const me = await call('GET', '/api/me', key);
  assert.equal(me.json().team.usedThisMonth, 1, describeReply(me));
  const again = await call('POST', '/api/documents/greeting', key, { props: { name: 'Grace' } });
  assert.equal(again.status, 200, describeReply(again));
  assert.match(pdfText(again.body), /Hello Grace/);

  const teams = await runCli(['team', 'list', '--json', '--database', databaseUrl], { env: { IMPRINT_DATA_DIR: dataDir } });
  assert.equal(teams.code, 0, teams.describe());
  assert.deepEqual(
    JSON.parse(teams.stdout.toString()).map((t: { name: string; generationLimit: number; usedThisMonth: number }) => [t.name, t.generationLimit, t.usedThisMonth]),
    [['acme', 5, 2]],
  );
});

test('a --database that is not a PostgreSQL URL is a usage error naming the flag', async () => {
  const refused = await runCli(['team', 'list', '--database', 'mysql://db/imprint'], { env: { IMPRINT_DATA_DIR: dataDir } });
  assert.equal(refused.code, 2, refused.describe());
  assert.match(refused.stderr, /--database.*not a PostgreSQL URL/);
  const fromEnv = await runCli(['key', 'list', '--team', 'acme'], { env: { IMPRINT_DATA_DIR: dataDir, IMPRINT_DATABASE_URL: 'nonsense' } });
  assert.equal(fromEnv.code, 2, fromEnv.describe());
  assert.match(fromEnv.stderr, /IMPRINT_DATABASE_URL/);
});
