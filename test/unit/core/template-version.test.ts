import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { routeRenderVersionFlag } from '../../../src/cli/render-version-flag.js';
import { pinnedTemplate } from '../../../src/cli/commands/render-version.js';
import { openDatabase } from '../../../src/core/store/sqlite/database.js';
import { openStore } from '../../../src/core/store/index.js';
import { MIGRATIONS } from '../../../src/core/store/sqlite/migrations.js';
import { parseTemplateVersion, parseTemplateVersionText, splitVersionedRef } from '../../../src/core/template-version.js';

describe('template versions: parsing (core)', () => {
  test('a body version is a JSON integer from 1 to 2^31-1', () => {
    assert.equal(parseTemplateVersion(1), 1);
    assert.equal(parseTemplateVersion(2_147_483_647), 2_147_483_647);
    for (const bad of [0, -1, 1.5, '3', null, true, 2 ** 31, Number.NaN, {}]) {
      assert.throws(() => parseTemplateVersion(bad), (e: any) => e.code === 'INVALID_INPUT' && /version/.test(e.message), String(bad));
    }
    assert.throws(() => parseTemplateVersion(undefined), /Missing version/);
  });

  test('command-line versions and id@n', () => {
    assert.equal(parseTemplateVersionText('12'), 12);
    for (const bad of ['', 'x', '1.5', '-1', '0', '99999999999']) assert.throws(() => parseTemplateVersionText(bad), (e: any) => e.code === 'USAGE', bad);
    assert.deepEqual(splitVersionedRef('invoice@3'), { id: 'invoice', version: 3 });
    assert.deepEqual(splitVersionedRef('invoice'), { id: 'invoice' });
    assert.throws(() => splitVersionedRef('invoice@'), /Invalid version ""/);
  });

  test('pinnedTemplate: id@n or --version n, not both different, not on a file', () => {
    assert.deepEqual(pinnedTemplate('invoice@2', false, undefined), { ref: 'invoice', version: 2 });
    assert.deepEqual(pinnedTemplate('invoice', false, '4'), { ref: 'invoice', version: 4 });
    assert.deepEqual(pinnedTemplate('invoice@4', false, '4'), { ref: 'invoice', version: 4 });
    assert.throws(() => pinnedTemplate('invoice@2', false, '3'), /Two versions given/);
    assert.throws(() => pinnedTemplate('./Invoice.tsx', true, '3'), /is a file/);
    assert.deepEqual(pinnedTemplate('./a@2.tsx', true, undefined), { ref: './a@2.tsx' });
  });
});

describe('routeRenderVersionFlag: render --version is render\'s, not the program\'s', () => {
  const argv = (...args: string[]) => ['node', 'imprint', ...args];
  test('after render, --version (and --version=n) is handed to render', () => {
    assert.deepEqual(routeRenderVersionFlag(argv('render', 'invoice', '--version', '3')), argv('render', 'invoice', '--template-version', '3'));
    assert.deepEqual(routeRenderVersionFlag(argv('--data-dir', 'd', 'render', 'x', '--version=2')), argv('--data-dir', 'd', 'render', 'x', '--template-version=2'));
  });
  test("anywhere else it stays the program's", () => {
    assert.deepEqual(routeRenderVersionFlag(argv('--version')), argv('--version'));
    assert.deepEqual(routeRenderVersionFlag(argv('list', '--version')), argv('list', '--version'));
    assert.deepEqual(routeRenderVersionFlag(argv('--api-url', 'render', 'list', '--version')), argv('--api-url', 'render', 'list', '--version'));
  });
});

describe('store: who published, rollbacks, and the migration that records them', () => {
  test('a data folder from before migration 2 opens upgraded; its versions have no publisher', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-migrate-'));
    try {
      const store = openStore({ dataDir });
      const team = await store.ensureTeam('local');
      await store.publishTemplate(team.id, 'old', Buffer.from('{"v":1}'), { publishedBy: 'key_1' });
      await store.close();
      // Back to the first schema, as an older Imprint left it.
      const db = openDatabase(path.join(dataDir, 'imprint.db'), MIGRATIONS);
      db.exec('ALTER TABLE template_versions DROP COLUMN published_by; ALTER TABLE template_versions DROP COLUMN rollback_of; PRAGMA user_version = 1;');
      // The tables later steps made go too, so every step after the first runs again.
      for (const table of tablesMadeAfterFirstStep()) db.exec(`DROP TABLE ${table}`);
      // And the columns later steps added to the first step's other tables (the dashboard's on api_keys).
      for (const { table, column } of columnsAddedAfterFirstStep()) if (table !== 'template_versions') db.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
      db.close();

      const reopened = openStore({ dataDir });
      const [v1] = (await reopened.getTemplate(team.id, 'old'))!.versions;
      assert.equal(v1!.publishedBy, null);
      assert.equal(v1!.rollbackOf, null);
      const rolled = await reopened.rollbackTemplate(team.id, 'old', 1, { publishedBy: 'key_2' });
      assert.equal(rolled.version, 2);
      assert.equal(rolled.rollbackOf, 1);
      const [, v2] = (await reopened.getTemplate(team.id, 'old'))!.versions;
      assert.deepEqual([v2!.publishedBy, v2!.rollbackOf, v2!.artifactSha256], ['key_2', 1, v1!.artifactSha256]);
      await assert.rejects(() => reopened.rollbackTemplate(team.id, 'old', 5), /no version 5; its versions are 1-2/);
      await reopened.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** The tables of the current schema that the first migration step did not make. */
/** Columns that steps after the first added to tables the first step made. */
function columnsAddedAfterFirstStep(): { table: string; column: string }[] {
  const columns = (db: ReturnType<typeof openDatabase>, table: string) => (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((row) => row.name);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-schema-'));
  try {
    const first = openDatabase(path.join(scratch, 'first.db'), MIGRATIONS.slice(0, 1));
    const all = openDatabase(path.join(scratch, 'all.db'), MIGRATIONS);
    const firstTables = (first.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((row) => row.name);
    const added = firstTables.flatMap((table) => {
      const before = new Set(columns(first, table));
      return columns(all, table).filter((column) => !before.has(column)).map((column) => ({ table, column }));
    });
    first.close();
    all.close();
    return added;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function tablesMadeAfterFirstStep(): string[] {
  const tables = (db: ReturnType<typeof openDatabase>) =>
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((row) => row.name);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-schema-'));
  try {
    const first = openDatabase(path.join(scratch, 'first.db'), MIGRATIONS.slice(0, 1));
    const all = openDatabase(path.join(scratch, 'all.db'), MIGRATIONS);
    const firstTables = new Set(tables(first));
    const later = tables(all).filter((name) => !firstTables.has(name));
    first.close();
    all.close();
    // Dropped children first: a table that names another by a foreign key goes before it.
    return later.reverse();
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
