/** The `optimizeImages` field's rule (core/render/images/option.ts), through parseRenderOptions as every face reads it. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseRenderOptions } from '../../../../../src/core/render-request.js';
import { OPTIMIZE_IMAGES_DEFAULTS } from '../../../../../src/core/render/images/option.js';
import { parseJobRequest } from '../../../../../src/core/jobs/parse-job.js';

const parse = (optimizeImages: unknown) => parseRenderOptions({ optimizeImages }).optimizeImages;

describe('optimizeImages', { timeout: 10_000 }, () => {
  test('true takes the defaults; an object keeps what it gives; false and absent are off', () => {
    assert.deepEqual(parse(true), { maxDpi: 150, quality: 80 });
    assert.deepEqual(OPTIMIZE_IMAGES_DEFAULTS, { maxDpi: 150, quality: 80 });
    assert.deepEqual(parse({ maxDpi: 300 }), { maxDpi: 300, quality: 80 });
    assert.deepEqual(parse({ quality: 60 }), { maxDpi: 150, quality: 60 });
    assert.deepEqual(parse({}), { maxDpi: 150, quality: 80 });
    assert.equal(parse(false), undefined);
    assert.ok(!('optimizeImages' in parseRenderOptions({ optimizeImages: false })), 'off leaves no field behind');
    assert.ok(!('optimizeImages' in parseRenderOptions({})));
  });

  test('refused with the range or the shape that fits', () => {
    assert.throws(() => parse({ maxDpi: 35 }), { code: 'USAGE', message: /maxDpi 35: expected a whole number from 36 to 1200/ });
    assert.throws(() => parse({ maxDpi: 150.5 }), /whole number/);
    assert.throws(() => parse({ quality: 101 }), /quality 101: expected a whole number from 1 to 100/);
    assert.throws(() => parse({ quality: '80' }), /quality "80"/);
    assert.throws(() => parse({ dpi: 150 }), /unknown field "dpi"/);
    assert.throws(() => parse('yes'), /use true, or an object such as \{"maxDpi": 150, "quality": 80\}/);
    assert.throws(() => parse(null), /Invalid optimizeImages null/);
    assert.throws(() => parse([150]), /Invalid optimizeImages/);
  });

  test('a job takes it for every row, by the same rule', () => {
    assert.deepEqual(parseJobRequest({ template: 'report', rows: [{}], optimizeImages: { maxDpi: 200 } }).options.optimizeImages, { maxDpi: 200, quality: 80 });
    assert.throws(() => parseJobRequest({ template: 'report', rows: [{}], optimizeImages: { maxDpi: 2000 } }), /maxDpi 2000/);
  });
});
