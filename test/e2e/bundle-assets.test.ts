/**
 * What publish packs into an artifact, proved by rendering it: a tsconfig path alias, an
 * imported image, a file of the static/ folder, the template's CSS (its @page size too),
 * and React from imprint's own install for a project that has none.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { cliWithDataDir, INPUTS } from '../helpers/cli.js';
import { pdfImages, pdfInfo, pdfText, sizeMatches } from '../helpers/pdf.js';

const template = path.join(INPUTS, 'test', 'fixtures', 'project-paths', 'templates', 'Assets.tsx');

describe('bundling a template project', () => {
  test('the artifact holds the code, the CSS and the static folder', async () => {
    const { artifact } = await bundleTemplate(template);
    assert.equal(artifact.sourceName, 'Assets.tsx');
    assert.match(artifact.js, /data:image\/png;base64,/, 'the imported image is inlined');
    assert.match(artifact.css, /@page\s*{\s*size:\s*A5/);
    assert.deepEqual(Object.keys(artifact.assets), ['/static/badge.svg']);
    assert.equal(artifact.assets['/static/badge.svg'].contentType, 'image/svg+xml');
    assert.ok(artifact.sourceMap && JSON.parse(artifact.sourceMap).sources.some((s: string) => s.endsWith('templates/Assets.tsx')));
  });

  test('published and rendered, every piece shows in the PDF', async () => {
    const cli = cliWithDataDir();
    const published = await cli.run(['publish', template, '--json']);
    assert.equal(published.code, 0, published.describe());
    assert.equal(JSON.parse(published.stdout.toString()).id, 'assets', 'id from the file name');

    const result = await cli.run(['render', 'assets', '--props', '-'], { stdin: '{"greeting": "hello"}' });
    assert.equal(result.code, 0, result.describe());
    const text = pdfText(result.stdout);
    assert.match(text, /HELLO!/, 'the path alias @lib/format ran in the page');
    assert.match(text, /assets-ok/);
    assert.ok(sizeMatches(pdfInfo(result.stdout), 419.5, 595.3), 'the template CSS @page size A5 applies');
    assert.deepEqual(pdfImages(result.stdout), [{ width: 8, height: 8 }], 'the imported 8x8 PNG is in the PDF');
  });
});
