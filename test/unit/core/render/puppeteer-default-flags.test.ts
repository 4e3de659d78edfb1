import assert from 'node:assert/strict';
import { test } from 'node:test';
import puppeteer from 'puppeteer-core';
import { chromiumArgs, RENDERER_V8_FLAGS } from '../../../../src/core/render/launch-browser.js';
import { PUPPETEER_DEFAULT_FLAGS } from '../../../../src/core/render/puppeteer-default-flags.js';

test('our copy of the launch flags is the installed Puppeteer’s (about:blank is added at spawn)', async () => {
  const installed = (await puppeteer.defaultArgs({ headless: true })).filter((flag) => flag !== 'about:blank');
  assert.deepEqual([...PUPPETEER_DEFAULT_FLAGS], installed);
});

test('the launch passes each flag once, --no-sandbox only as root', () => {
  const asRoot = chromiumArgs(true, ['--disable-quic', '--proxy-server=http://127.0.0.1:1']);
  assert.equal(new Set(asRoot).size, asRoot.length);
  assert.ok(asRoot.includes('--no-sandbox') && asRoot.includes('--proxy-server=http://127.0.0.1:1'));
  assert.ok(!chromiumArgs(false).includes('--no-sandbox'));
  for (const quiet of ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']) {
    assert.ok(chromiumArgs(false).includes(quiet), quiet);
  }
});

test('one --disable-features, Puppeteer\'s features and the caller\'s (Chromium reads only the last such flag)', () => {
  const args = chromiumArgs(true, ['--disable-features=SomethingElse']);
  const disabling = args.filter((flag) => flag.startsWith('--disable-features='));
  assert.equal(disabling.length, 1);
  const features = disabling[0].slice('--disable-features='.length).split(',');
  const puppeteers = PUPPETEER_DEFAULT_FLAGS.find((flag) => flag.startsWith('--disable-features='))!.slice('--disable-features='.length).split(',');
  for (const feature of [...puppeteers, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SomethingElse']) assert.ok(features.includes(feature), feature);
  assert.equal(new Set(features).size, features.length);
});

test('one --js-flags, our V8 flags for the pages first, then any given', () => {
  const ours = chromiumArgs(false).filter((flag) => flag.startsWith('--js-flags='));
  assert.deepEqual(ours, [`--js-flags=${RENDERER_V8_FLAGS.join(' ')}`]);
  const args = chromiumArgs(true, ['--js-flags=--trace-gc']).filter((flag) => flag.startsWith('--js-flags='));
  assert.deepEqual(args, [`--js-flags=${[...RENDERER_V8_FLAGS, '--trace-gc'].join(' ')}`]);
});
