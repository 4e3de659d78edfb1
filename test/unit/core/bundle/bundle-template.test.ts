/**
 * `imprint dev`'s builder: one esbuild context per template, rebuilt after each save. Real
 * esbuild on real files: a rebuild sees the change, a build error is Imprint's BUILD_FAILED and
 * the next good save builds again, and the context has the one-shot build's options.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { bundleTemplate, createTemplateBuilder } from '../../../../src/core/bundle/bundle-template.js';
import { ImprintError } from '../../../../src/core/errors.js';
import { ROOT } from '../../../helpers/checkout.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-builder-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

describe('createTemplateBuilder', () => {
  test('with minify on, its artifact is the one-shot build\'s, byte for byte', async () => {
    const template = path.join(ROOT, 'test', 'fixtures', 'project-paths', 'templates', 'Assets.tsx');
    const builder = createTemplateBuilder(template, { minify: true });
    try {
      const [kept, once] = [await builder.build(), await bundleTemplate(template)];
      assert.deepEqual(kept.artifact, once.artifact);
      assert.deepEqual(kept.inputs.sort(), once.inputs.sort());
    } finally {
      await builder.dispose();
    }
  });

  test('a rebuild sees the saved file; a broken save fails as BUILD_FAILED and the fix builds again', async () => {
    const template = path.join(work, 'Note.tsx');
    const write = (text: string) => fs.writeFileSync(template, `export default function Note() { return <p>${text}</p>; }\n`);
    write('first words');
    const builder = createTemplateBuilder(template, { minify: false });
    try {
      assert.match((await builder.build()).artifact.js, /first words/);
      write('second words');
      const second = await builder.build();
      assert.match(second.artifact.js, /second words/);
      assert.doesNotMatch(second.artifact.js, /first words/);
      assert.ok(second.inputs.includes(template));

      fs.writeFileSync(template, 'export default function Note() { return <p>unclosed; }\n');
      await assert.rejects(builder.build(), (error) => error instanceof ImprintError && error.code === 'BUILD_FAILED' && /Note\.tsx:1:/.test(error.details ?? ''));
      write('third words');
      assert.match((await builder.build()).artifact.js, /third words/);
    } finally {
      await builder.dispose();
    }
    await assert.rejects(builder.build(), /disposed/);
  });
});
