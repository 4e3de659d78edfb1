/** Which calls bin/imprint.js's thin path takes (renderer/client/fast-render.ts): the common form only; everything else goes to the full CLI. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFastArgs, parseFastGenerateArgs } from '../../../../../src/cli/renderer/client/fast-render.js';

test('the common forms of render <id> are taken, with what they ask', () => {
  assert.deepEqual(parseFastArgs(['render', 'invoice']), { ref: 'invoice' });
  assert.deepEqual(parseFastArgs(['render', 'invoice', '--props', 'p.json', '-o', 'out/1.pdf']), { ref: 'invoice', props: 'p.json', output: 'out/1.pdf' });
  assert.deepEqual(parseFastArgs(['render', '-p', 'p.json', 'invoice', '--output=-', '--deterministic']), { ref: 'invoice', props: 'p.json', output: '-', deterministic: true });
  // Names an object has from its prototype are template ids like any other, not flags.
  assert.deepEqual(parseFastArgs(['render', 'constructor']), { ref: 'constructor' });
  assert.deepEqual(parseFastArgs(['render', 'invoice', '--embedded', '--data-dir', '/d', '--browser=/usr/bin/chromium']), {
    ref: 'invoice',
    embedded: true,
    dataDir: '/d',
    browser: '/usr/bin/chromium',
  });
  // A template file: rendered from the local template cache on the renderer.
  assert.deepEqual(parseFastArgs(['render', './templates/Invoice.tsx', '-p', 'p.json']), { ref: './templates/Invoice.tsx', file: true, props: 'p.json' });
});

test('the accessibility switches are taken as request fields; a switch with its --no- form is the full CLI\'s', () => {
  assert.deepEqual(parseFastArgs(['render', 'invoice', '--no-tagged']), { ref: 'invoice', tagged: false });
  assert.deepEqual(parseFastArgs(['render', './Invoice.tsx', '--tagged', '--no-outline']), { ref: './Invoice.tsx', file: true, tagged: true, outline: false });
  assert.deepEqual(parseFastGenerateArgs(['generate', '--html', 'page.html', '--no-tagged']), { html: 'page.html', tagged: false });
  assert.deepEqual(parseFastGenerateArgs(['generate', '--html', 'page.html', '--outline']), { html: 'page.html', outline: true });
  for (const args of [
    ['render', 'invoice', '--tagged', '--no-tagged'],
    ['render', 'invoice', '--no-outline', '--outline'],
    ['render', 'invoice', '--no-tagged', '--no-tagged'],
    ['render', 'invoice', '--pdfua'],
  ]) {
    assert.equal(parseFastArgs(args), undefined, args.join(' '));
  }
  assert.equal(parseFastGenerateArgs(['generate', '--html', 'page.html', '--tagged', '--no-tagged']), undefined);
});

test('anything else is the full CLI\'s: other commands and flags, versions, stdin, odd values', () => {
  for (const args of [
    ['generate', '--html', 'x.html'],
    ['--embedded', 'render', 'invoice'],
    ['render'],
    ['render', 'invoice', 'other'],
    ['render', 'invoice', '--title', 'T'],
    ['render', 'invoice', '--format', 'pdf'],
    ['render', 'invoice', '--no-renderer'],
    ['render', 'invoice', '--batch', 'rows.jsonl'],
    ['render', 'invoice', '--help'],
    ['render', 'invoice@3'],
    ['render', './Invoice.tsx', '--timeout', '5m'],
    ['render', 'invoice', '--props', '-'],
    ['render', 'invoice', '--props'],
    ['render', 'invoice', '--props', '--deterministic'],
    ['render', 'invoice', '-o', 'a.pdf', '-o', 'b.pdf'],
    ['render', 'invoice', '--deterministic=yes'],
    ['render', 'invoice', '--props='],
  ]) {
    assert.equal(parseFastArgs(args), undefined, args.join(' '));
  }
});

test('generate --html <file> in its common form is taken; stdin, --url and other flags are the full CLI\'s', () => {
  assert.deepEqual(parseFastGenerateArgs(['generate', '--html', 'page.html']), { html: 'page.html' });
  assert.deepEqual(parseFastGenerateArgs(['generate', '--html=page.html', '-o', '-', '--deterministic', '--allow-local', '--embedded', '--data-dir', '/d']), {
    html: 'page.html',
    output: '-',
    deterministic: true,
    allowLocal: true,
    embedded: true,
    dataDir: '/d',
  });
  for (const args of [
    ['render', 'invoice'],
    ['generate'],
    ['generate', '--html', '-'],
    ['generate', '--url', 'https://example.org'],
    ['generate', '--html', 'a.html', '--url', 'https://example.org'],
    ['generate', '--html', 'a.html', '--size', 'letter'],
    ['generate', '--html', 'a.html', '--batch', 'rows.jsonl'],
    ['generate', '--html', 'a.html', 'extra'],
    ['generate', '--html', 'a.html', '--html', 'b.html'],
    ['generate', '--html', '--deterministic'],
    ['generate', '--html', 'a.html', '--no-renderer'],
  ]) {
    assert.equal(parseFastGenerateArgs(args), undefined, args.join(' '));
  }
});
