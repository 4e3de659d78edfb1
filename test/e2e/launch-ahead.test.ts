/**
 * The CLI starts Chromium from its entry point for a local render (src/cli/launch-ahead.ts).
 * Shown here on the real CLI: the render uses that browser (one profile folder is made, not
 * two), and a browser started ahead for a render that fails before it asks for one is closed
 * (no profile folder and no Chromium left behind).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { EXAMPLES, runCli, tempDir } from '../helpers/cli.js';
import { pdfInfo } from '../helpers/pdf.js';

const dataDir = tempDir();
const env = { IMPRINT_DATA_DIR: dataDir };

before(async () => {
  const published = await runCli(['publish', path.join(EXAMPLES, 'invoice', 'Invoice.tsx')], { env });
  assert.equal(published.code, 0, published.describe());
});
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Profile folders created in `tmp` while `work` runs (each launch makes one). */
async function profilesMadeDuring(tmp: string, work: () => Promise<void>): Promise<Set<string>> {
  const made = new Set<string>();
  const watcher = fs.watch(tmp, (_event, name) => {
    if (name?.startsWith('imprint-profile-')) made.add(name);
  });
  try {
    await work();
  } finally {
    watcher.close();
  }
  return made;
}

const chromiumUsing = (tmp: string) => {
  const ps = execFileSync('ps', ['-eo', 'pid,stat,args'], { encoding: 'utf8' });
  return ps.split('\n').filter((line) => line.includes(`--user-data-dir=${tmp}`));
};

test('a cold render uses the browser started ahead: one launch, and nothing left afterwards', async () => {
  const tmp = tempDir('imprint-ahead-tmp-');
  const out = path.join(tmp, 'out.pdf');
  const made = await profilesMadeDuring(tmp, async () => {
    const rendered = await runCli(['render', 'invoice', '--props', path.join(EXAMPLES, 'invoice', 'props.json'), '-o', out], { env: { ...env, TMPDIR: tmp } });
    assert.equal(rendered.code, 0, rendered.describe());
  });
  assert.equal(made.size, 1, `profile folders made: ${[...made].join(', ')}`);
  assert.equal(pdfInfo(out).pages >= 1, true);
  assert.deepEqual(fs.readdirSync(tmp).filter((name) => name.startsWith('imprint-profile-')), []);
  assert.deepEqual(chromiumUsing(tmp), []);
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('a render that fails before it needs the browser closes the one started ahead', async () => {
  const tmp = tempDir('imprint-ahead-tmp-');
  const made = await profilesMadeDuring(tmp, async () => {
    const failed = await runCli(['render', 'no-such-template', '--props', path.join(EXAMPLES, 'invoice', 'props.json'), '-o', path.join(tmp, 'x.pdf')], { env: { ...env, TMPDIR: tmp } });
    assert.equal(failed.code, 1, failed.describe());
    assert.match(failed.stderr, /No template "no-such-template"/);
  });
  // It was started (so the check below can fail), and it is gone.
  assert.equal(made.size, 1);
  assert.deepEqual(fs.readdirSync(tmp).filter((name) => name.startsWith('imprint-profile-')), []);
  assert.deepEqual(chromiumUsing(tmp), []);
  fs.rmSync(tmp, { recursive: true, force: true });
});
