/** The service's JSON body parser: keys that could change what objects inherit, found and named. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ImprintError } from '../../../../src/core/errors.js';
import { parseJsonBody, prototypeKeyPath } from '../../../../src/server/http/json-body.js';

describe('prototypeKeyPath', () => {
  test('names the first such key by its place, in objects and arrays', () => {
    assert.equal(prototypeKeyPath(JSON.parse('{"a": 1, "b": {"c": [1, {"__proto__": 2}]}}')), 'b.c[1].__proto__');
    assert.equal(prototypeKeyPath(JSON.parse('{"__proto__": null}')), '__proto__');
    assert.equal(prototypeKeyPath(JSON.parse('[{"x": {"constructor": {"prototype": {}}}}]')), '[0].x.constructor');
  });

  test('leaves ordinary bodies, a "constructor" that holds no prototype, and non-objects alone', () => {
    assert.equal(prototypeKeyPath(JSON.parse('{"customer": {"constructor": "ACME Builders", "proto": 1}}')), undefined);
    assert.equal(prototypeKeyPath(JSON.parse('{"constructor": {"name": "x"}}')), undefined);
    assert.equal(prototypeKeyPath(null), undefined);
    assert.equal(prototypeKeyPath('__proto__'), undefined);
  });
});

describe('parseJsonBody', () => {
  const refusal = (text: string) => {
    try {
      parseJsonBody(text);
    } catch (error) {
      assert.ok(error instanceof ImprintError);
      assert.equal(error.code, 'INVALID_INPUT');
      return error.message;
    }
    assert.fail(`${text} was accepted`);
  };

  test('parses JSON as JSON.parse does', () => {
    assert.deepEqual(parseJsonBody('{"props": {"n": 1, "list": [true, null]}}'), { props: { n: 1, list: [true, null] } });
  });

  test('refuses an empty body, and text that is not JSON, as Fastify worded them', () => {
    assert.equal(refusal(''), 'The body is empty: send a JSON object.');
    assert.equal(refusal('{"props": '), 'The body is not valid JSON: check its syntax (the Content-Type says application/json).');
  });

  test('refuses a prototype key, escaped or not, naming where it is', () => {
    assert.match(refusal('{"name": {"q": 1, "__proto__": "x"}}'), /^Invalid name\.__proto__: a key named "__proto__" is not accepted .*rename or remove it\.$/);
    assert.match(refusal('{"rows": [{}, {"\\u005f\\u005fproto__": {}}]}'), /^Invalid rows\[1\]\.__proto__:/);
    assert.match(refusal('{"__proto__": {}}'), /^Invalid body: "__proto__": /);
  });
});
