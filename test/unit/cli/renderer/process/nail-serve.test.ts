/**
 * The renderer's check of a nail call (renderer/process/nail-serve.ts prepareNail): taken only when it is
 * the thin path's common form for this very renderer, with the client's relative paths read in
 * the client's folder; declined otherwise. Real files in a temp folder; no renderer runs.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { runningRenderer } from '../../../../../src/cli/renderer/common-call.js';
import { prepareNail } from '../../../../../src/cli/renderer/process/nail-serve.js';
import type { NailRequest } from '../../../../../src/cli/renderer/wire.js';
import { packageRoot } from '../../../../../src/core/package-root.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-nail-unit-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
const work = path.join(root, 'work');
fs.mkdirSync(path.join(work, 'out'), { recursive: true });
fs.writeFileSync(path.join(work, 'p.json'), '{"name": "ACME"}');
fs.writeFileSync(path.join(work, 'list.json'), '[1]');

const cli = path.join(packageRoot(), 'dist', 'cli.js');
const env: Record<string, string | undefined> = {
  ...process.env,
  IMPRINT_API_URL: undefined,
  IMPRINT_API_KEY: undefined,
  IMPRINT_MODE: undefined,
  IMPRINT_RENDERER: 'on',
  CI: 'true',
  IMPRINT_DATA_DIR: path.join(root, 'data'),
  IMPRINT_CONFIG_DIR: path.join(root, 'config'),
  IMPRINT_RUNTIME_DIR: path.join(root, 'run'),
};
const spec = runningRenderer({ embedded: true }, false, cli, env)!.spec;

const call = (argv: string[], more: Partial<NailRequest> = {}): NailRequest => ({
  type: 'nail',
  argv,
  cwd: work,
  env,
  cli,
  stdoutIsTTY: false,
  stderrIsTTY: false,
  umask: process.umask(),
  gid: process.getegid?.() ?? -1,
  groups: process.getgroups?.() ?? [],
  ...more,
});

test('the common form for this renderer is taken: relative paths in the client\'s folder, props read, options built', () => {
  const cwd = process.cwd();
  const prepared = prepareNail(call(['render', 'invoice', '--props', 'p.json', '-o', 'out/x.pdf', '--deterministic']), spec);
  assert.ok(!('declined' in prepared), JSON.stringify(prepared));
  assert.deepEqual(prepared.destination, { kind: 'file', path: path.join(work, 'out', 'x.pdf') });
  assert.deepEqual(prepared.props, { name: 'ACME' });
  assert.equal(prepared.ref, 'invoice');
  assert.equal(prepared.options.deterministic, true);
  assert.equal(process.cwd(), cwd, 'the renderer\'s own folder is back');
  const piped = prepareNail(call(['render', 'invoice']), spec);
  assert.ok(!('declined' in piped));
  assert.deepEqual(piped.destination, { kind: 'stdout' }, 'no -o, stdout not a terminal: stdout, as the CLI does');
  assert.equal(piped.props, undefined);
});

test('anything else is declined, and the renderer stays in its own folder', () => {
  const cwd = process.cwd();
  const declined: [string, NailRequest][] = [
    ['another flag', call(['render', 'invoice', '--title', 'T'])],
    ['props from stdin', call(['render', 'invoice', '--props', '-'])],
    ['props that are not an object', call(['render', 'invoice', '--props', 'list.json', '-o', 'out/y.pdf'])],
    ['a props file that is missing', call(['render', 'invoice', '--props', 'missing.json', '-o', 'out/y.pdf'])],
    ['a destination in a missing folder', call(['render', 'invoice', '-o', 'nowhere/y.pdf'])],
    ['another data folder (another renderer)', call(['render', 'invoice', '--data-dir', path.join(root, 'other')])],
    ['remote mode', call(['render', 'invoice'], { env: { ...env, IMPRINT_API_URL: 'http://127.0.0.1:9', IMPRINT_API_KEY: 'k' } })],
    ['the renderer off', call(['render', 'invoice'], { env: { ...env, IMPRINT_RENDERER: 'off' } })],
    ['another umask', call(['render', 'invoice'], { umask: process.umask() ^ 0o077 })],
    ['another group', call(['render', 'invoice'], { gid: (process.getegid?.() ?? 0) + 4242 })],
    ['other supplementary groups', call(['render', 'invoice'], { groups: [...(process.getgroups?.() ?? []), 4242] })],
    ['a terminal (its progress is the client\'s)', call(['render', 'invoice', '-o', 'out/z.pdf'], { stderrIsTTY: true, env: { ...env, CI: undefined } })],
    ['another installation', call(['render', 'invoice'], { cli: path.join(root, 'dist', 'cli.js') })],
    ['a folder that is gone', call(['render', 'invoice'], { cwd: path.join(root, 'gone') })],
    ['not a nail call', { type: 'nail', argv: 'render invoice' } as unknown as NailRequest],
  ];
  for (const [why, request] of declined) {
    assert.ok('declined' in prepareNail(request, spec), why);
    assert.equal(process.cwd(), cwd, why);
  }
  assert.deepEqual(fs.readdirSync(path.join(work, 'out')), [], 'nothing written');
});
