/** What XML 1.0 cannot carry (xml-chars.ts): found and named; what it can, passed. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { controlCharacter, forbiddenXmlCharacter } from '../../../src/core/xml-chars.js';

test('C0 controls but tab, LF and CR; U+FFFE, U+FFFF; lone surrogates: named with their position', () => {
  assert.equal(forbiddenXmlCharacter('a\u0000b'), 'U+0000 at character 2');
  assert.equal(forbiddenXmlCharacter('\u0008'), 'U+0008 at character 1');
  assert.equal(forbiddenXmlCharacter('ab\u000B'), 'U+000B at character 3');
  assert.equal(forbiddenXmlCharacter('\u000C'), 'U+000C at character 1');
  assert.equal(forbiddenXmlCharacter('x\u001F'), 'U+001F at character 2');
  assert.equal(forbiddenXmlCharacter('\uFFFE'), 'U+FFFE at character 1');
  assert.equal(forbiddenXmlCharacter('\uFFFF'), 'U+FFFF at character 1');
  assert.equal(forbiddenXmlCharacter('a\uD800b'), 'U+D800 at character 2');
  assert.equal(forbiddenXmlCharacter('a\uDC00'), 'U+DC00 at character 2');
});

test('tab, LF, CR, markup, DEL and C1 controls, astral characters (a surrogate pair): allowed', () => {
  for (const text of ['\t\n\r', '<a> & ]]>', '\u007F\u0085', 'emoji \u{1F600}', 'CJK 漢字', '']) assert.equal(forbiddenXmlCharacter(text), undefined, JSON.stringify(text));
});

test('control characters (file names, header values): every C0 control and DEL, tab and line breaks included, named the same way', () => {
  assert.equal(controlCharacter('{{who\u0000ever}}'), 'U+0000 at character 6');
  assert.equal(controlCharacter('imp_key\r\n'), 'U+000D at character 8');
  assert.equal(controlCharacter('a\tb'), 'U+0009 at character 2');
  assert.equal(controlCharacter('x\u007F'), 'U+007F at character 2');
  assert.equal(controlCharacter('{{invoiceNo}}.pdf \u0085 漢字'), undefined);
});
