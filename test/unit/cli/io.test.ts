import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { lineAndColumn, parseJsonText } from '../../../src/cli/io/read-input.js';
import { checkWritable, chooseDestination, writeFileAtomically } from '../../../src/cli/io/write-output.js';

describe('chooseDestination: a PDF never goes to a terminal', () => {
  const base = { binary: true, defaultFileName: 'invoice.pdf' };
  test('-o - on a pipe: stdout', () => assert.deepEqual(chooseDestination({ ...base, output: '-', stdoutIsTTY: false }), { kind: 'stdout' }));
  test('-o - on a terminal: refused', () => assert.throws(() => chooseDestination({ ...base, output: '-', stdoutIsTTY: true }), /Refusing to write a PDF to the terminal/));
  test('no -o on a pipe: stdout', () => assert.deepEqual(chooseDestination({ ...base, stdoutIsTTY: false }), { kind: 'stdout' }));
  test('no -o on a terminal: the default file', () => assert.deepEqual(chooseDestination({ ...base, stdoutIsTTY: true }), { kind: 'file', path: path.resolve('invoice.pdf') }));
  test('JSON forms print on a terminal', () => assert.deepEqual(chooseDestination({ ...base, binary: false, stdoutIsTTY: true }), { kind: 'stdout' }));
  test('-o file', () => assert.deepEqual(chooseDestination({ ...base, output: 'x/y.pdf', stdoutIsTTY: true }), { kind: 'file', path: path.resolve('x/y.pdf') }));
});

describe('checkWritable and writeFileAtomically', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-io-'));
  test('a missing folder is reported before any work', () => {
    assert.throws(() => checkWritable({ kind: 'file', path: path.join(dir, 'missing', 'a.pdf') }), /folder .* does not exist/);
  });
  test('a folder given as the file is reported', () => {
    assert.throws(() => checkWritable({ kind: 'file', path: dir }), /it is a folder/);
  });
  test('an atomic write leaves the file and no temp file', () => {
    const file = path.join(dir, 'out.pdf');
    writeFileAtomically(file, Buffer.from('%PDF-1.4'));
    assert.equal(fs.readFileSync(file, 'utf8'), '%PDF-1.4');
    assert.deepEqual(fs.readdirSync(dir), ['out.pdf']);
  });
  test('a write that fails leaves the old file, no temp file, and names the file', () => {
    const sub = fs.mkdtempSync(path.join(dir, 'fails-'));
    const file = path.join(sub, 'out.pdf');
    fs.writeFileSync(file, 'old');
    // The rename fails: a file cannot replace a folder that holds something.
    const blocked = path.join(sub, 'blocked.pdf');
    fs.mkdirSync(blocked);
    fs.writeFileSync(path.join(blocked, 'inside'), 'x');
    assert.throws(() => writeFileAtomically(blocked, Buffer.from('%PDF-1.4')), (error: any) => error.code === 'OUTPUT_FAILED' && error.message.startsWith(`Cannot write ${blocked}:`));
    assert.deepEqual(fs.readdirSync(sub).sort(), ['blocked.pdf', 'out.pdf']);
    assert.equal(fs.readFileSync(file, 'utf8'), 'old');
  });
  test('two writes of one file in a row use two temp files and leave the last content', () => {
    const file = path.join(dir, 'twice.pdf');
    writeFileAtomically(file, 'first');
    writeFileAtomically(file, 'second');
    assert.equal(fs.readFileSync(file, 'utf8'), 'second');
    assert.deepEqual(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp')), []);
  });
});

describe('parseJsonText: errors name the file, line and column', () => {
  test('line and column of an offset', () => assert.deepEqual(lineAndColumn('{\n  "a": 1,\n}', 12), { line: 3, column: 1 }));
  test('a trailing comma', () => {
    assert.throws(() => parseJsonText('{\n  "a": 1,\n}', 'props.json'), (error: any) => error.code === 'INVALID_INPUT' && error.message.startsWith('props.json:3:1 is not valid JSON'));
  });
  test('an empty file', () => assert.throws(() => parseJsonText('', 'props.json'), /props.json:1:1 is not valid JSON: it is empty/));
  test('valid JSON', () => assert.deepEqual(parseJsonText('{"a": [1]}', 'p.json'), { a: [1] }));
});
