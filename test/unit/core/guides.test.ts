/**
 * src/core/guides.ts: its list of guides is the docs/ folder, the files it names exist, its
 * web addresses come from package.json's `repository` at the running version, and the anchors
 * the source asks of guideUrl are headings of their guide.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { GUIDES, guideFile, guideUrl, guidesUrl } from '../../../src/core/guides.js';
import { packageRoot } from '../../../src/core/package-root.js';
import { imprintVersion } from '../../../src/core/version.js';
import { headingAnchors } from '../../helpers/markdown-links.js';

const root = packageRoot();
const docs = path.join(root, 'docs');

test('GUIDES lists every guide in docs/, and guideFile names each file', () => {
  const inFolder = fs.readdirSync(docs).filter((name) => name.endsWith('.md')).map((name) => name.slice(0, -'.md'.length)).sort();
  assert.deepEqual([...GUIDES].sort(), inFolder);
  for (const guide of GUIDES) assert.ok(fs.existsSync(guideFile(guide)), guideFile(guide));
});

test("the web addresses are package.json's repository at this version's tag", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const web = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  assert.equal(guideUrl('deploy'), `${web}/blob/v${imprintVersion()}/docs/deploy.md`);
  assert.equal(guideUrl('jobs', 'streaming'), `${web}/blob/v${imprintVersion()}/docs/jobs.md#streaming`);
  assert.equal(guidesUrl(), `${web}/tree/v${imprintVersion()}/docs`);
});

test('every anchor the source gives guideUrl is a heading of that guide', () => {
  const asked: [string, string, string][] = [];
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (/\.tsx?$/.test(entry.name)) {
        for (const [, guide, anchor] of fs.readFileSync(file, 'utf8').matchAll(/guideUrl\('([\w-]+)', '([\w-]+)'\)/g)) asked.push([guide, anchor, path.relative(root, file)]);
      }
    }
  };
  visit(path.join(root, 'src'));
  assert.ok(asked.length >= 2, 'the source links to sections');
  for (const [guide, anchor, file] of asked) {
    assert.ok(headingAnchors(fs.readFileSync(path.join(docs, `${guide}.md`), 'utf8')).has(anchor), `${file}: docs/${guide}.md has a heading #${anchor}`);
  }
});
