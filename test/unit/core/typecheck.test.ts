/**
 * The pure parts of the type check (src/core/typecheck): how an error reads, which templates
 * an error belongs to, which tsconfig and which TypeScript a template is checked with, and
 * that `imprint/client` types what the bundler builds. The real compiler on real files in a
 * temporary folder; the check through the CLI is test/e2e/check-types.test.ts.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import ts from 'typescript';
import { compilerFor } from '../../../src/core/typecheck/compiler.js';
import { defaultOptions, forChecking, programSetup } from '../../../src/core/typecheck/program-options.js';
import { formatTypeDiagnostic, templatesByFile, toTypeDiagnostic, withBundlerHint } from '../../../src/core/typecheck/type-diagnostics.js';
import { ROOT } from '../../helpers/cli.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-typecheck-unit-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

function write(file: string, text: string): string {
  const target = path.join(work, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, text);
  return target;
}

describe('formatTypeDiagnostic', () => {
  test('file:line:col relative to the working folder, the TS code and the message, as tsc prints them', () => {
    const line = formatTypeDiagnostic({ file: '/p/templates/Bad.tsx', line: 12, column: 5, code: 2322, message: "Type 'string' is not assignable to type 'number'." }, '/p');
    assert.equal(line, "templates/Bad.tsx:12:5 - error TS2322: Type 'string' is not assignable to type 'number'.");
  });

  test('the lines of a message chain follow, indented; an error about no file has no location', () => {
    assert.equal(formatTypeDiagnostic({ file: '/p/a.tsx', line: 1, column: 2, code: 2769, message: 'No overload matches this call.\n  Overload 1 of 2 failed.' }, '/p'), 'a.tsx:1:2 - error TS2769: No overload matches this call.\n    Overload 1 of 2 failed.');
    assert.equal(formatTypeDiagnostic({ code: 5023, message: "Unknown compiler option 'strictest'." }, '/p'), "error TS5023: Unknown compiler option 'strictest'.");
  });

  test('toTypeDiagnostic counts lines and columns from 1, as editors do', () => {
    const source = ts.createSourceFile('/p/a.ts', 'const a = 1;\nconst b: number = "x";\n', ts.ScriptTarget.ES2022, true);
    const start = source.text.indexOf('b:');
    const described = toTypeDiagnostic(ts, { file: source, start, length: 1, code: 2322, category: ts.DiagnosticCategory.Error, messageText: 'wrong' });
    assert.deepEqual(described, { file: path.resolve('/p/a.ts'), line: 2, column: 7, code: 2322, message: 'wrong' });
  });
});

describe('withBundlerHint', () => {
  const notFound = (name: string) => ({ file: '/p/A.tsx', line: 1, column: 1, code: 2307, message: `Cannot find module '${name}' or its corresponding type declarations.` });

  test('an asset or text import the tsconfig cannot type: which setting types it', () => {
    for (const name of ['./logo.png', './a.module.css', './terms.md', './seal.svg', './lora.woff2']) {
      assert.match(withBundlerHint(notFound(name), '/p/tsconfig.json').message, /\nImprint's bundler builds this import: add "imprint\/client" to compilerOptions\.types in tsconfig\.json to type it\.$/, name);
    }
    const json = { file: '/p/A.tsx', code: 2732, message: "Cannot find module './terms.json'. Consider using '--resolveJsonModule' to import module with '.json' extension." };
    assert.match(withBundlerHint(json, '/p/tsconfig.app.json').message, /set compilerOptions\.resolveJsonModule in tsconfig\.app\.json/);
  });

  test('a missing code module, or a project without a tsconfig (the defaults type assets), is left as it is', () => {
    assert.deepEqual(withBundlerHint(notFound('./parts/Table'), '/p/tsconfig.json'), notFound('./parts/Table'));
    assert.deepEqual(withBundlerHint(notFound('left-pad'), '/p/tsconfig.json'), notFound('left-pad'));
    assert.deepEqual(withBundlerHint(notFound('./logo.png'), undefined), notFound('./logo.png'));
  });
});

describe('templatesByFile', () => {
  const imports = new Map([
    ['/p/A.tsx', new Set(['/p/parts/Money.tsx', '/p/node_modules/x/index.d.ts'])],
    ['/p/B.tsx', new Set(['/p/parts/Money.tsx', '/p/parts/Table.tsx'])],
    ['/p/parts/Money.tsx', new Set(['/p/parts/Table.tsx'])],
    // A cycle ends where it began.
    ['/p/parts/Table.tsx', new Set(['/p/parts/Money.tsx'])],
    ['/p/node_modules/x/index.d.ts', new Set(['/p/node_modules/y/index.d.ts'])],
  ]);
  const beyond = (file: string) => file.includes('/node_modules/');

  test('a shared file belongs to every template that reaches it, through any depth', () => {
    const owners = templatesByFile(['/p/A.tsx', '/p/B.tsx'], imports, beyond);
    assert.deepEqual([...owners.get('/p/parts/Money.tsx')!].sort(), ['/p/A.tsx', '/p/B.tsx']);
    assert.deepEqual([...owners.get('/p/parts/Table.tsx')!].sort(), ['/p/A.tsx', '/p/B.tsx']);
    assert.deepEqual([...owners.get('/p/A.tsx')!], ['/p/A.tsx']);
  });

  test('installed packages are not followed: their errors are not the template\'s', () => {
    const owners = templatesByFile(['/p/A.tsx'], imports, beyond);
    assert.equal(owners.has('/p/node_modules/x/index.d.ts'), false);
    assert.equal(owners.has('/p/node_modules/y/index.d.ts'), false);
  });
});

describe('programSetup', () => {
  test('without a tsconfig: the strict defaults, with output off', () => {
    const template = write('bare/Bare.tsx', 'export default function Bare() { return null; }\n');
    const setup = programSetup(ts, template, defaultOptions(ts));
    assert.equal(setup.configFile, undefined);
    assert.equal(setup.options.strict, true);
    assert.equal(setup.options.jsx, ts.JsxEmit.ReactJSX);
    assert.equal(setup.options.noEmit, true);
  });

  test('the nearest tsconfig, `extends` followed, its declaration files kept, "no inputs" not an error', () => {
    write('extends/base.json', JSON.stringify({ compilerOptions: { strict: true, noUncheckedIndexedAccess: true, jsx: 'react-jsx' } }));
    write('extends/tsconfig.json', JSON.stringify({ extends: './base.json', compilerOptions: { composite: true, outDir: 'out' }, include: ['types'] }));
    const declarations = write('extends/types/assets.d.ts', "declare module '*.csv' { const rows: string[][]; export default rows; }\n");
    const template = write('extends/templates/Report.tsx', 'export default function Report() { return null; }\n');
    const setup = programSetup(ts, template, defaultOptions(ts));
    assert.equal(setup.configFile, path.join(work, 'extends', 'tsconfig.json'));
    assert.equal(setup.options.noUncheckedIndexedAccess, true);
    assert.deepEqual(setup.declarationFiles, [declarations]);
    assert.deepEqual(setup.configErrors, []);
    // A composite project would insist that every root is in its file list; the check emits nothing.
    assert.equal(setup.options.composite, false);
    assert.equal(setup.options.outDir, undefined);
  });

  test('a solution-style tsconfig (Vite\'s): the settings of the referenced project that includes the template', () => {
    write('solution/tsconfig.json', JSON.stringify({ files: [], references: [{ path: './tsconfig.node.json' }, { path: './tsconfig.app.json' }] }));
    write('solution/tsconfig.node.json', JSON.stringify({ compilerOptions: { composite: true, types: [] }, include: ['vite.config.ts'] }));
    write('solution/tsconfig.app.json', JSON.stringify({ compilerOptions: { composite: true, jsx: 'react-jsx', noUnusedLocals: true }, include: ['src'] }));
    write('solution/vite.config.ts', 'export default {};\n');
    const template = write('solution/src/Letter.tsx', 'export default function Letter() { return null; }\n');
    const setup = programSetup(ts, template, defaultOptions(ts));
    assert.equal(setup.configFile, path.join(work, 'solution', 'tsconfig.app.json'));
    assert.equal(setup.options.noUnusedLocals, true);
  });

  test('forChecking keeps what the project says about types and drops what it says about output', () => {
    const options = forChecking({ strict: true, declaration: true, emitDeclarationOnly: true, incremental: true, tsBuildInfoFile: 'x' });
    assert.deepEqual(
      { strict: options.strict, noEmit: options.noEmit, declaration: options.declaration, emitDeclarationOnly: options.emitDeclarationOnly, incremental: options.incremental, tsBuildInfoFile: options.tsBuildInfoFile },
      { strict: true, noEmit: true, declaration: false, emitDeclarationOnly: false, incremental: false, tsBuildInfoFile: undefined },
    );
  });
});

describe('compilerFor', () => {
  /** A project's own `typescript` package: the real compiler under another version number. */
  function projectTypescript(dir: string, version: string): void {
    const pkg = path.join(work, dir, 'node_modules', 'typescript');
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(path.join(work, dir, 'package.json'), '{"name":"p","private":true}\n');
    fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'typescript', version, main: 'index.js' }));
    fs.writeFileSync(path.join(pkg, 'index.js'), `module.exports = { ...require(${JSON.stringify(path.join(ROOT, 'node_modules', 'typescript'))}), version: ${JSON.stringify(version)} };\n`);
  }

  test("the project's TypeScript when it has one", () => {
    projectTypescript('own-ts', '5.8.0-project');
    const compiler = compilerFor(path.join(work, 'own-ts'), () => ts);
    assert.deepEqual({ version: compiler.version, from: compiler.from }, { version: '5.8.0-project', from: 'project' });
  });

  test("Imprint's when the project's is older than 5, and it says why", () => {
    projectTypescript('old-ts', '4.9.5');
    const compiler = compilerFor(path.join(work, 'old-ts'), () => ts);
    assert.equal(compiler.from, 'imprint');
    assert.equal(compiler.version, ts.version);
    assert.match(compiler.note ?? '', /the project's TypeScript 4\.9\.5 is older than 5\.0/);
  });

  test("Imprint's when the project has none", () => {
    // The filesystem root has no node_modules/typescript above it.
    const compiler = compilerFor(path.parse(work).root, () => ts);
    assert.deepEqual({ version: compiler.version, from: compiler.from }, { version: ts.version, from: 'imprint' });
  });
});

describe('imprint/client', () => {
  test('types the imports the bundler builds: CSS modules as class names, assets and text files as strings', () => {
    const dir = path.join(work, 'client');
    write('client/a.module.css', '.note { color: red }\n');
    const file = write(
      'client/Uses.ts',
      [
        "import styles from '../a.module.css';",
        "import '../plain.css';",
        "import dot from '../dot.png';",
        "import font from '../lora.woff2';",
        "import terms from '../terms.md';",
        "import logo from '../logo.svg';",
        'export const text: string = styles.note + dot + font + terms + logo;',
        '// @ts-expect-error an image is a URL string, not a number',
        'export const wrong: number = dot;',
        '',
      ].join('\n'),
    );
    const options = { ...defaultOptions(ts), noEmit: true, noUncheckedSideEffectImports: true };
    const program = ts.createProgram({ rootNames: [file, path.join(ROOT, 'client.d.ts')], options });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    assert.deepEqual(errors, [], `in ${dir}`);
  });
});
