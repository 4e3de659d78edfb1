import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renumberStructureIds } from '../../../../src/core/pdf/structure-ids.js';

test('the ids are numbered in their own order from 1, at the same width: offsets and the ID tree order stay', () => {
  const from = (ids: number[]) => Buffer.from(`<< /ID (node${ids.map((n) => String(n).padStart(8, '0')).join(') >> << /ID (node')}) >> /Names [(node00000360) 9 0 R]`, 'latin1');
  const warm = renumberStructureIds(from([317, 318, 360]));
  const fresh = renumberStructureIds(from([52, 53, 360]));
  assert.equal(warm.length, from([317, 318, 360]).length);
  assert.equal(warm.toString('latin1'), '<< /ID (node00000001) >> << /ID (node00000002) >> << /ID (node00000003) >> /Names [(node00000003) 9 0 R]');
  assert.ok(fresh.equals(warm), 'a warm page and a fresh one give the same bytes');
});

test('a PDF without structure ids comes back as it is', () => {
  const pdf = Buffer.from('%PDF-1.4 (nodes) (node123)');
  assert.equal(renumberStructureIds(pdf), pdf);
});
