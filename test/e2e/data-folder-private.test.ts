/**
 * Secrets at rest (issue 26): the data folder holds webhook signing secrets and job download
 * tokens, so it is its user's alone. The real CLI and `imprint serve`, run as root here, on
 * real folders: a new folder is 0700 with every file 0600 (the database's -wal and -shm while
 * a service holds it open); an older folder (0755, files 0644) is tightened at start and that
 * is said once; a folder another user (nobody) owns is refused.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { EXAMPLES, runCli, tempDir } from '../helpers/cli.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const invoice = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const NOTICE = /The data folder .* was readable by other users \(made by an older Imprint\); it is now private to this user/g;
const NOBODY = 65534;

const scratch = tempDir('imprint-private-');
const serves: ServeProcess[] = [];
after(async () => {
  for (const serve of serves) {
    if (serve.child.exitCode === null && serve.child.signalCode === null) await serve.stop();
    fs.rmSync(serve.tmpDir, { recursive: true, force: true });
  }
  fs.rmSync(scratch, { recursive: true, force: true });
});

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
const octal = (mode: number) => `0${mode.toString(8)}`;
const cli = (dataDir: string, args: string[]) => runCli(args, { env: { IMPRINT_DATA_DIR: dataDir } });

/** Every folder and file under `dir` with its mode, the folder itself included. */
function modes(dir: string): Record<string, string> {
  const found: Record<string, string> = { '.': octal(modeOf(dir)) };
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const where = path.join(entry.parentPath, entry.name);
    found[path.relative(dir, where)] = octal(modeOf(where));
  }
  return found;
}

function assertPrivate(dir: string): void {
  for (const [where, mode] of Object.entries(modes(dir))) {
    const isFolder = fs.statSync(path.join(dir, where)).isDirectory();
    assert.equal(mode, isFolder ? '0700' : '0600', `${where} is ${mode}: ${JSON.stringify(modes(dir))}`);
  }
}

async function serve(dataDir: string): Promise<ServeProcess> {
  const started = await startServeProcess({ dataDir });
  serves.push(started);
  return started;
}

describe('the data folder is private to its user', () => {
  test('a new folder: 0700, the database, its -wal and -shm, artifacts and keys 0600', async () => {
    const dataDir = path.join(scratch, 'new', 'data');
    const publish = await cli(dataDir, ['publish', invoice]);
    assert.equal(publish.code, 0, publish.describe());
    const team = await cli(dataDir, ['team', 'create', 'acme']);
    assert.equal(team.code, 0, team.describe());
    assert.ok(fs.readdirSync(path.join(dataDir, 'artifacts')).length > 0, 'an artifact was written');
    assert.doesNotMatch(publish.stderr + team.stderr, NOTICE, 'nothing to tighten in a new folder');
    // The parents are made as usual; only the data folder itself is private.
    assert.equal(modeOf(path.dirname(dataDir)), 0o755);
    const running = await serve(dataDir);
    assert.ok(fs.existsSync(path.join(dataDir, 'imprint.db-wal')) && fs.existsSync(path.join(dataDir, 'imprint.db-shm')), JSON.stringify(modes(dataDir)));
    assertPrivate(dataDir);
    await running.stop();
  });

  test('an older folder (0755, files 0644) is made private at start, and that is said once', async () => {
    const dataDir = path.join(scratch, 'old');
    const publish = await cli(dataDir, ['publish', invoice]);
    assert.equal(publish.code, 0, publish.describe());
    const loosen = () => {
      for (const [where] of Object.entries(modes(dataDir))) {
        const full = path.join(dataDir, where);
        fs.chmodSync(full, fs.statSync(full).isDirectory() ? 0o755 : 0o644);
      }
    };
    loosen();
    const first = await cli(dataDir, ['list']);
    assert.equal(first.code, 0, first.describe());
    assert.equal(first.stderr.match(NOTICE)?.length, 1, first.describe());
    assertPrivate(dataDir);
    const second = await cli(dataDir, ['list']);
    assert.equal(second.code, 0, second.describe());
    assert.doesNotMatch(second.stderr, NOTICE, 'said once: the folder is private now');

    // The service says it in its log, once.
    loosen();
    const running = await serve(dataDir);
    assert.equal(running.output().match(NOTICE)?.length, 1, running.output());
    assertPrivate(dataDir);
    await running.stop();
  });

  test('a folder another user owns is refused, by the CLI and by the service, with what to do', async () => {
    const dataDir = path.join(scratch, 'theirs');
    fs.mkdirSync(dataDir, { mode: 0o700 });
    fs.chownSync(dataDir, NOBODY, NOBODY);
    const listed = await cli(dataDir, ['list']);
    assert.equal(listed.code, 1, listed.describe());
    assert.match(listed.stderr, /The Imprint data folder .*theirs belongs to another user \(uid 65534; this is uid 0\).*choose another data folder/s);
    assert.deepEqual(fs.readdirSync(dataDir), [], 'nothing was written into it');
    await assert.rejects(serve(dataDir), /belongs to another user/);
  });
});
