import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rendersLocally, scanArgs, VALUE_FLAGS, willUseRenderer } from '../../../src/cli/launch-ahead.js';
import { createCliRuntime } from '../../../src/cli/cli-runtime.js';
import { buildProgram } from '../../../src/cli/program.js';

const noLogin = () => ({});
const login = () => ({ apiUrl: 'https://pdf.example.org', apiKey: 'k' });

test('the scan finds the command and its template, and global flags wherever they stand', () => {
  assert.deepEqual(scanArgs(['render', 'invoice', '--props', 'p.json', '-o', 'x.pdf']), { command: 'render', ref: 'invoice', informational: false, flags: {} });
  const before = scanArgs(['--browser', '/opt/chrome', '--data-dir', 'render', 'render', 'invoice']);
  assert.equal(before.command, 'render');
  assert.equal(before.ref, 'invoice');
  assert.equal(before.flags.browser, '/opt/chrome');
  const after = scanArgs(['render', 'invoice', '--api-url=http://h', '--api-key', 'k', '--remote']);
  assert.deepEqual(after.flags, { apiUrl: 'http://h', apiKey: 'k', remote: true });
  assert.equal(scanArgs(['render', '--help']).informational, true);
  assert.equal(scanArgs(['render', '--', '--remote']).flags.remote, undefined);
});

test('a browser is started ahead only for a local render', () => {
  const cases: Array<[string, string[], NodeJS.ProcessEnv, () => object, boolean]> = [
    ['a published template, no login', ['render', 'invoice'], {}, noLogin, true],
    ['logged in: remote', ['render', 'invoice'], {}, login, false],
    ['logged in, --embedded', ['render', 'invoice', '--embedded'], {}, login, true],
    ['IMPRINT_MODE=remote', ['render', 'invoice'], { IMPRINT_MODE: 'remote' }, noLogin, false],
    ['env connection: remote', ['render', 'invoice'], { IMPRINT_API_URL: 'http://h', IMPRINT_API_KEY: 'k' }, noLogin, false],
    ['a local file renders locally even when logged in', ['render', './Invoice.tsx'], {}, login, true],
    ['another command', ['list'], {}, noLogin, false],
    ['render without a template', ['render'], {}, noLogin, false],
    ['help', ['render', 'invoice', '--help'], {}, noLogin, false],
    ['a bad IMPRINT_MODE: the CLI reports it', ['render', 'invoice'], { IMPRINT_MODE: 'sideways' }, noLogin, false],
  ];
  for (const [name, args, env, stored, expected] of cases) assert.equal(rendersLocally(scanArgs(args), env, stored), expected, name);
});

test('a login file that cannot be read means no head start, not a crash', () => {
  const broken = () => {
    throw new Error('corrupt');
  };
  assert.equal(rendersLocally(scanArgs(['render', 'invoice']), {}, broken), false);
});

test('the scan knows every global flag of the program that takes a value', () => {
  // Nothing starts: the runtime's proxies and launches happen on first use only.
  const program = buildProgram(() => {}, createCliRuntime());
  const taking = program.options.filter((option) => option.required || option.optional).map((option) => option.long);
  assert.deepEqual([...taking].sort(), Object.keys(VALUE_FLAGS).sort());
});

test('no browser ahead for a render the warm renderer will serve (a published template or a file); batches keep theirs', () => {
  const cases: Array<[string, string[], NodeJS.ProcessEnv, boolean]> = [
    ['a published template', ['render', 'invoice'], {}, true],
    ['--no-renderer', ['render', 'invoice', '--no-renderer'], {}, false],
    ['IMPRINT_RENDERER=off', ['render', 'invoice'], { IMPRINT_RENDERER: 'off' }, false],
    ['a local file renders on the renderer too', ['render', './Invoice.tsx'], {}, true],
    ['a local file with --no-renderer renders in-process', ['render', './Invoice.tsx', '--no-renderer'], {}, false],
    ['a batch has its own pool', ['render', '--batch', 'rows.jsonl', 'invoice', '--out-dir', 'out'], {}, false],
    ['a bad IMPRINT_RENDERER: no browser, the CLI reports it', ['render', 'invoice'], { IMPRINT_RENDERER: 'sideways' }, true],
  ];
  for (const [name, args, env, expected] of cases) assert.equal(willUseRenderer(scanArgs(args), env), expected, name);
  const batch = scanArgs(['render', '--batch', 'rows.jsonl', 'invoice']);
  assert.equal(batch.ref, 'invoice', "--batch's value is not the template");
  const timed = scanArgs(['render', '--timeout', '5m', 'invoice']);
  assert.deepEqual([timed.ref, timed.flags.timeout], ['invoice', '5m'], "--timeout's value is not the template");
});
