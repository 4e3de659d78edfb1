/** npm version's changelog step: the Unreleased notes filed under the new version. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
// @ts-expect-error a plain JavaScript build script, without declarations
import { releaseChangelog } from '../../scripts/release-changelog.js';

const release = releaseChangelog as (text: string, version: string, date: string) => string;

test('the Unreleased notes become the version\'s section under a new, empty Unreleased', () => {
  const text = '# Changelog\n\n## Unreleased\n\n- Added doctor.\n\n## 0.1.0 - 2026-11-01\n\n- First.\n';
  assert.equal(release(text, '0.2.0', '2026-11-26'), '# Changelog\n\n## Unreleased\n\n## 0.2.0 - 2026-11-26\n\n- Added doctor.\n\n## 0.1.0 - 2026-11-01\n\n- First.\n');
});

test('a release with no notes, or one released twice, is refused', () => {
  assert.throws(() => release('# Changelog\n\n## Unreleased\n\n## 0.1.0 - x\n- a\n', '0.2.0', 'd'), /empty/);
  assert.throws(() => release('# Changelog\n\n## Unreleased\n- b\n\n## 0.2.0 - x\n- a\n', '0.2.0', 'd'), /already/);
  assert.throws(() => release('# Changelog\n', '0.2.0', 'd'), /no "## Unreleased"/);
});
