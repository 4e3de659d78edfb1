import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ImprintError } from '../../../../src/core/errors.js';
import { checkPropsDepth, jsonDepth } from '../../../../src/core/limits/props-depth.js';

/** `levels` arrays nested in each other, built without recursion. */
function nestedArrays(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

function nestedObjects(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { child: value };
  return value;
}

describe('jsonDepth', () => {
  const cases: [string, unknown, number][] = [
    ['a string', 'x', 0],
    ['a number', 3, 0],
    ['null', null, 0],
    ['an empty object', {}, 1],
    ['a flat object', { a: 1, b: 'x', c: null }, 1],
    ['an object with an array', { a: [1, 2] }, 2],
    ['an empty array in an object', { a: [] }, 2],
    ['the deepest branch counts', { shallow: 1, deep: { a: { b: { c: [1] } } }, mid: { a: 1 } }, 5],
    ['arrays of objects', [{ a: [{ b: 1 }] }], 4],
    ['32 nested objects', nestedObjects(32), 32],
  ];
  for (const [name, value, depth] of cases) test(`${name}: ${depth}`, () => assert.equal(jsonDepth(value), depth));

  // A recursive walk overflows Node's stack at around ten thousand levels.
  test('200 000 nested arrays are measured without overflowing the stack', () => {
    assert.equal(jsonDepth(nestedArrays(200_000)), 200_000);
  });

  test('with a bound, the walk stops just past it', () => {
    assert.equal(jsonDepth(nestedArrays(200_000), 32), 33);
    assert.equal(jsonDepth(nestedArrays(32), 32), 32);
  });

  test('a parsed body of brackets, as a request body would carry them', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    assert.equal(jsonDepth(deep, 32), 33);
  });
});

describe('checkPropsDepth', () => {
  test('props at the limit pass', () => assert.doesNotThrow(() => checkPropsDepth(nestedObjects(32), 32)));

  test('one level more is a 400 that names the limit', () => {
    assert.throws(
      () => checkPropsDepth(nestedObjects(33), 32),
      (error: unknown) =>
        error instanceof ImprintError && error.code === 'INVALID_INPUT' && error.httpStatus === 400 && /more than 32 levels deep/.test(error.message),
    );
  });

  test('an unlimited depth (the local CLI) accepts anything', () => assert.doesNotThrow(() => checkPropsDepth(nestedArrays(10_000), Number.POSITIVE_INFINITY)));
});
