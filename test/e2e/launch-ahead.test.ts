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
import { eventually } from '../contract/helpers/faults.js';

const dataDir = tempDir();
const env = { IMPRINT_DATA_DIR: dataDir };

before(async () => {
  const published = await runCli(['publish', path.join(EXAMPLES, 'invoice', 'Invoice.tsx')], { env });
  assert.equal(published.code, 0, published.describe());
});
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/**
 * Profile folders created in `tmp` while `work` runs (each launch makes one). The watcher's
 * events arrive after the fact: a marker file made once `work` is done is seen only after
 * every event before it (inotify keeps their order), so none is lost to closing early.
 */
async function profilesMadeDuring(tmp: string, work: () => Promise<void>): Promise<Set<string>> {
  const made = new Set<string>();
  const marker = `flush-${process.pid}`;
  let flushed: () => void = () => {};
  const seenMarker = new Promise<void>((resolve) => (flushed = resolve));
  const watcher = fs.watch(tmp, (_event, name) => {
    if (name?.startsWith('imprint-profile-')) made.add(name);
    if (name === marker) flushed();
  });
  try {
    await work();
    fs.writeFileSync(path.join(tmp, marker), '');
    await seenMarker;
  } finally {
    watcher.close();
    fs.rmSync(path.join(tmp, marker), { force: true });
  }
  return made;
}

const chromiumUsing = (tmp: string) => {
  const ps = execFileSync('ps', ['-eo', 'pid,stat,args'], { encoding: 'utf8' });
  return ps.split('\n').filter((line) => line.includes(`--user-data-dir=${tmp}`));
};

/** The CLI has exited; the browser it closed may still be on its way out (its helpers reaped by init): wait for that, with a deadline. */
async function expectNoChromiumUsing(tmp: string) {
  let left: string[] = [];
  const gone = await eventually(() => (left = chromiumUsing(tmp)).length === 0, 15_000);
  assert.ok(gone, `Chromium still running on ${tmp}:\n${left.join('\n')}`);
}

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
  await expectNoChromiumUsing(tmp);
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
  await expectNoChromiumUsing(tmp);
  fs.rmSync(tmp, { recursive: true, force: true });
});
