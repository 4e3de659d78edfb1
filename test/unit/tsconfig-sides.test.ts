/**
 * Each side of Imprint is compiled with the globals of where it runs (tsconfig.base.json): the
 * browser wing (src/web/tsconfig.json) with the DOM and without Node's types, the Node code
 * (tsconfig.json) without the DOM. Proved with the real compiler on each config's own files
 * plus a probe file that uses the other side's globals, which must not compile.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { ROOT } from '../helpers/cli.js';

/** The config's program, with `probe` (a file that does not exist on disk) added under `dir`; its errors, as "file: TSnnnn". */
function compile(config: string, probe: { dir: string; text: string }): { errors: string[]; files: string[] } {
  const file = path.join(ROOT, config);
  const read = ts.readConfigFile(file, ts.sys.readFile);
  assert.equal(read.error, undefined);
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(file));
  assert.deepEqual(parsed.errors, []);
  const probeFile = path.join(ROOT, probe.dir, '__side-probe.ts');
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => (name === probeFile ? ts.createSourceFile(name, probe.text, language) : getSourceFile(name, language, ...rest));
  const program = ts.createProgram({ rootNames: [...parsed.fileNames, probeFile], options: parsed.options, host });
  const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.relative(ROOT, d.file.fileName) : '-'}: TS${d.code}`);
  return { errors, files: program.getSourceFiles().map((f) => path.relative(ROOT, f.fileName)) };
}

test('the browser wing compiles under its own config, with the DOM and without Node: a use of process or Buffer there is an error', () => {
  const { errors, files } = compile('src/web/tsconfig.json', {
    dir: 'src/web',
    text: "export const inPage = document.title;\nexport const nodeOnly = [process.env.HOME, Buffer.from('x')];\n",
  });
  assert.ok(files.some((f) => f.startsWith('src/web/studio/')) && files.some((f) => f.startsWith('src/web/dashboard/')), 'both apps are in the program');
  assert.deepEqual(files.filter((f) => f.includes('@types/node')), [], "Node's types are not in the program");
  // TS2591: "Cannot find name 'process'/'Buffer'. Do you need to install type definitions for node? ... add 'node' to the types field"
  assert.deepEqual(errors, ['src/web/__side-probe.ts: TS2591', 'src/web/__side-probe.ts: TS2591']);
});

test('the Node code compiles without the DOM: a use of document there is an error', () => {
  const { errors, files } = compile('tsconfig.json', { dir: 'src/core', text: "export const notInNode = document.title;\nexport const home = process.env.HOME;\n" });
  assert.deepEqual(files.filter((f) => f.startsWith('src/web/') && !f.endsWith('protocol.ts')), [], 'no file of the browser wing but the studio protocol\'s types');
  // TS2584: "Cannot find name 'document'. Do you need to change your target library?"
  assert.deepEqual(errors, ['src/core/__side-probe.ts: TS2584']);
});
