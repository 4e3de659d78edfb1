/**
 * The template cache's side for `imprint dev` (the whole path through the CLI is
 * test/e2e/dev-template-cache.test.ts): a build made elsewhere is recorded under its variant's
 * records and found again by a lookup of that variant only; one whose input was written while it
 * was built is not kept (it would be handed to content it was not built from); and the build of
 * one variant takes its props schema from a current build of the other instead of deriving it.
 * Real esbuild, real files, a real cache folder.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { createTemplateCache, type TemplateCache } from '../../../src/backend/template-cache/template-cache.js';
import { BUILD_VARIANTS } from '../../../src/backend/template-cache/build-variants.js';
import { bundleTemplate } from '../../../src/core/bundle/bundle-template.js';
import type { DerivedWithInputs } from '../../../src/core/schema/derive-props-schema.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-cache-record-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

let projects = 0;
/** A project of its own (a template importing a CSS file) with its files dated an hour ago: written well before any build. */
function project(): { template: string; css: string; cache: TemplateCache } {
  const dir = path.join(work, `project-${++projects}`);
  fs.mkdirSync(dir);
  const manifest = path.join(dir, 'package.json');
  fs.writeFileSync(manifest, '{"name":"p","private":true}\n');
  const template = path.join(dir, 'Note.tsx');
  const css = path.join(dir, 'note.css');
  fs.writeFileSync(template, "import './note.css';\nexport default function Note({ text }: { text: string }) {\n  return <p>{text}</p>;\n}\n");
  fs.writeFileSync(css, 'p { color: red; }\n');
  const anHourAgo = new Date(Date.now() - 3600_000);
  for (const file of [manifest, template, css]) fs.utimesSync(file, anHourAgo, anHourAgo);
  return { template, css, cache: createTemplateCache({ dataDir: path.join(dir, 'data'), maxBytes: 64 * 1024 * 1024 }) };
}

/** A schema no derivation gives: seeing it again shows it was reused, not derived. */
const marked = (template: string): DerivedWithInputs => ({ derived: { kind: 'none', reason: 'recorded by the test' }, inputs: [template] });

test("a recorded dev build is found by a lookup of dev's variant, not of publish's", async () => {
  const { template, cache } = project();
  const since = Date.now();
  const bundled = await bundleTemplate(template, BUILD_VARIANTS.dev);
  assert.equal(await cache.record(template, 'dev', { bundled, typed: marked(template), since }), true);
  const found = await cache.lookup(template, 'dev');
  assert.equal(found?.artifact.js, bundled.artifact.js);
  assert.deepEqual(found?.derived, marked(template).derived);
  assert.ok(found?.inputs.includes(fs.realpathSync(template)), 'the inputs name the template, for dev to watch');
  assert.equal(await cache.lookup(template, 'publish'), undefined, 'an unminified build is not what publish stores');
});

test('a build whose input was written while it was made is not kept', async () => {
  const { template, css, cache } = project();
  const since = Date.now();
  const bundled = await bundleTemplate(template, BUILD_VARIANTS.dev);
  // Saved after the bundle began: what was bundled may be the old CSS, and the record would hash the new.
  fs.writeFileSync(css, 'p { color: blue; }\n');
  assert.equal(await cache.record(template, 'dev', { bundled, typed: marked(template), since }), false);
  assert.equal(await cache.lookup(template, 'dev'), undefined);
});

test("publish's build after dev's takes dev's props schema and bundles minified; a changed input derives it again", async () => {
  const { template, css, cache } = project();
  const dev = await bundleTemplate(template, BUILD_VARIANTS.dev);
  assert.equal(await cache.record(template, 'dev', { bundled: dev, typed: marked(template), since: Date.now() }), true);
  const published = await cache.prepare(template, 'publish');
  assert.equal(published.from, 'build');
  assert.deepEqual(published.derived, marked(template).derived, "dev's schema, not derived again");
  assert.ok(published.artifact.js.length < dev.artifact.js.length, 'minified');
  assert.equal((await cache.prepare(template, 'publish')).from, 'memory');

  // Dev's build is stale once the CSS changes: publish's next build derives the schema itself.
  fs.writeFileSync(css, 'p { color: green; }\n');
  const rebuilt = await cache.prepare(template, 'publish');
  assert.equal(rebuilt.from, 'build');
  assert.equal(rebuilt.derived.kind, 'schema');
  assert.match(rebuilt.artifact.css, /green/);
});
