/**
 * The type check of `imprint check` and `imprint publish` (issue 35, item 5), through the real
 * CLI on template projects laid out as users' are: package.json, tsconfig.json, templates/ with
 * a component folder, CSS modules and images. A template with a type error renders; only the
 * type check can catch it.
 *
 * A project's node_modules is what `npm install` would give it, React's types copied from this
 * repository's; its `typescript` is the installed imprint's compiler under a version number of
 * its own, so the report shows which TypeScript checked it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import ts from 'typescript';
import { cliWithDataDir, ROOT, tempDir, type CliResult } from '../helpers/cli.js';
import { borrowedPackage, installedTypescript } from '../helpers/project-modules.js';
import { blockOf } from '../helpers/check-report.js';

const work = tempDir('imprint-check-types-');
after(() => fs.rmSync(work, { recursive: true, force: true }));

const PROJECT_TS = `${ts.version}-project`;
const PNG = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'project-paths', 'templates', 'dot.png'));

const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', jsx: 'react-jsx', strict: true, noEmit: true, skipLibCheck: true, lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: ['imprint/client'] },
  include: ['templates'],
};

const RECEIPT = `import { Document } from 'imprint/react';
import styles from './receipt.module.css';
import stamp from './stamp.png';
import { money } from './parts/money';

export interface ReceiptProps { total: number }

export default function Receipt({ total }: ReceiptProps) {
  return (
    <Document size="A5">
      <img src={stamp} alt="" width={20} height={20} />
      <p className={styles.total}>Receipt total {money(total)}</p>
    </Document>
  );
}

Receipt.PreviewProps = { total: 12 } satisfies ReceiptProps;
`;

/** Renders as it should (the label is a string at run time); only its types are wrong. */
const BAD = `import { Document } from 'imprint/react';

export interface BadProps { total: number }

export default function Bad({ total }: BadProps) {
  const label: number = \`Bad total \${total}\`;
  return (
    <Document size="A5">
      <p>{label}</p>
    </Document>
  );
}

Bad.PreviewProps = { total: 7 } satisfies BadProps;
`;
const BAD_ERROR = /templates\/Bad\.tsx:6:9 - error TS2322: Type 'string' is not assignable to type 'number'\./;

/** Its error is in the component it imports. */
const USES_BROKEN = `import { Document } from 'imprint/react';
import { Line } from './parts/Line';

export default function UsesBroken() {
  return (
    <Document size="A5">
      <Line text="shared component" />
    </Document>
  );
}

UsesBroken.PreviewProps = {};
`;
const LINE = `export function Line({ text }: { text: string }) {
  const width: number = text;
  return <p style={{ width }}>{text}</p>;
}
`;

/** A project as `npm install` leaves it: React's types, and (unless `typescript: false`) a TypeScript of its own. */
function project(name: string, files: Record<string, string | Buffer>, options: { typescript?: boolean; reactTypes?: boolean } = {}): string {
  const dir = path.join(work, name);
  const all: Record<string, string | Buffer> = { 'package.json': JSON.stringify({ name, private: true, type: 'module' }), ...files };
  for (const [file, content] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  const modules = path.join(dir, 'node_modules');
  if (options.reactTypes !== false) {
    fs.mkdirSync(path.join(modules, '@types'), { recursive: true });
    fs.symlinkSync(borrowedPackage(path.join('@types', 'react')), path.join(modules, '@types', 'react'), 'dir');
    fs.symlinkSync(borrowedPackage('csstype'), path.join(modules, 'csstype'), 'dir');
  }
  if (options.typescript !== false) {
    const pkg = path.join(modules, 'typescript');
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'typescript', version: PROJECT_TS, main: 'index.js' }));
    fs.writeFileSync(path.join(pkg, 'index.js'), `module.exports = { ...require(${JSON.stringify(installedTypescript())}), version: ${JSON.stringify(PROJECT_TS)} };\n`);
  }
  return dir;
}

describe('imprint check type-checks a project with its tsconfig and TypeScript', () => {
  const cli = cliWithDataDir();
  let dir: string;
  let result: CliResult;
  let report: string;

  before(async () => {
    dir = project('acme', {
      'tsconfig.json': JSON.stringify(TSCONFIG),
      'templates/Receipt.tsx': RECEIPT,
      'templates/receipt.module.css': '.total { font-weight: bold; }\n',
      'templates/stamp.png': PNG,
      'templates/parts/money.ts': "export const money = (amount: number): string => `€${amount.toFixed(2)}`;\n",
      'templates/parts/Line.tsx': LINE,
      'templates/Bad.tsx': BAD,
      'templates/UsesBroken.tsx': USES_BROKEN,
    });
    result = await cli.run(['check'], { cwd: dir, timeoutMs: 180_000 });
    report = result.stdout.toString();
  });

  test('a type error fails the template that renders: exit 1, file:line:col, the TS code and the message', () => {
    assert.equal(result.code, 1, result.describe());
    assert.match(report, /3 templates checked: 1 passed, 2 failed/);
    const bad = blockOf(report, 'templates/Bad.tsx');
    assert.match(bad, /^✖ /);
    assert.match(bad, BAD_ERROR);
    // It rendered: the type error is its only problem.
    assert.equal(bad.split('\n').filter((line) => line.startsWith('  - ')).length, 1, bad);
  });

  test('an error in an imported component fails the template that imports it, at the component\'s line', () => {
    const uses = blockOf(report, 'templates/UsesBroken.tsx');
    assert.match(uses, /^✖ /);
    assert.match(uses, /templates\/parts\/Line\.tsx:2:9 - error TS2322: Type 'string' is not assignable to type 'number'\./);
  });

  test('a template that type-checks passes, its CSS module, image and imprint/react imports typed', () => {
    assert.match(blockOf(report, 'templates/Receipt.tsx'), /^✔ .*PreviewProps match the props type, no type errors/);
  });

  test('one program for all the templates, with the project\'s TypeScript and tsconfig.json', () => {
    const lines = result.stderr.split('\n').filter((line) => line.includes('Type-checked'));
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0], new RegExp(`Type-checked 3 templates with TypeScript ${PROJECT_TS.replace(/\./g, '\\.')} \\(the project's\\) and tsconfig\\.json`));
  });

  test('--json: each template\'s type check, its errors with file, line, column and code', async () => {
    const json = await cli.run(['check', 'templates/Bad.tsx', 'templates/Receipt.tsx', '--json'], { cwd: dir, timeoutMs: 180_000 });
    assert.equal(json.code, 1, json.describe());
    const parsed = JSON.parse(json.stdout.toString()) as { templates: { file: string; passed: boolean; typecheck: { status: string; errors: object[] } }[] };
    const [bad, receipt] = parsed.templates;
    assert.equal(bad.passed, false);
    assert.deepEqual(bad.typecheck, { status: 'failed', errors: [{ file: path.join('templates', 'Bad.tsx'), line: 6, column: 9, code: 2322, message: "Type 'string' is not assignable to type 'number'." }] });
    assert.deepEqual(receipt.typecheck, { status: 'passed', errors: [] });
  });

  test('--no-typecheck skips it: the same templates build and render, and pass', async () => {
    const skipped = await cli.run(['check', '--no-typecheck'], { cwd: dir, timeoutMs: 180_000 });
    assert.equal(skipped.code, 0, skipped.describe());
    assert.match(skipped.stdout.toString(), /3 templates checked: 3 passed, 0 failed/);
    assert.doesNotMatch(skipped.stderr, /Type-checked|Type check/);
  });
});

describe('imprint check in projects that give less', () => {
  const cli = cliWithDataDir();

  test('no tsconfig and no TypeScript: Imprint\'s, with strict defaults that know imported assets', async () => {
    const dir = project('bare', { 'Bad.tsx': BAD.replace("from 'imprint/react';", "from 'imprint/react';\nimport stamp from './stamp.png';\nconsole.log(stamp.length);"), 'stamp.png': PNG }, { typescript: false });
    const result = await cli.run(['check', 'Bad.tsx'], { cwd: dir, timeoutMs: 180_000 });
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stdout.toString(), /Bad\.tsx:8:9 - error TS2322: Type 'string' is not assignable to type 'number'\./);
    assert.equal(result.stdout.toString().match(/error TS\d+/g)?.length, 1, result.stdout.toString());
    assert.match(result.stderr, new RegExp(`Type-checked 1 template with TypeScript ${ts.version.replace(/\./g, '\\.')} \\(Imprint's\\) and default settings \\(no tsconfig\\.json\\)`));
  });

  test('React\'s types not installed: not type-checked, with a warning that says how to install them', async () => {
    const dir = project('untyped', { 'tsconfig.json': JSON.stringify(TSCONFIG), 'templates/Bad.tsx': BAD }, { reactTypes: false });
    const result = await cli.run(['check'], { cwd: dir, timeoutMs: 180_000 });
    assert.equal(result.code, 0, result.describe());
    assert.match(result.stdout.toString(), /✔ templates\/Bad\.tsx rendered, PreviewProps match the props type, types not checked/);
    assert.match(result.stderr, /Type check skipped: the types of `react\/jsx-runtime` \(React's, for JSX\) are not installed in .*untyped: run `npm install` there, or `npm install --save-dev @types\/react`/);
  });
});

describe('imprint publish type-checks what it publishes', () => {
  const cli = cliWithDataDir();
  let dir: string;

  before(() => {
    dir = project('publishing', { 'tsconfig.json': JSON.stringify(TSCONFIG), 'templates/Bad.tsx': BAD });
  });

  const published = async () => JSON.parse((await cli.run(['list', '--json'], { cwd: dir })).stdout.toString()) as { id: string; latestVersion: number }[];

  test('--strict refuses a template with type errors: exit 1, the errors, nothing published', async () => {
    const refused = await cli.run(['publish', 'templates/Bad.tsx', '--strict'], { cwd: dir, timeoutMs: 180_000 });
    assert.equal(refused.code, 1, refused.describe());
    assert.match(refused.stderr, /templates\/Bad\.tsx has 1 type error; not published \(--strict\)/);
    assert.match(refused.stderr, BAD_ERROR);
    assert.deepEqual(await published(), []);
  });

  test('without --strict: the errors as a warning, and it publishes', async () => {
    const result = await cli.run(['publish', 'templates/Bad.tsx'], { cwd: dir, timeoutMs: 180_000 });
    assert.equal(result.code, 0, result.describe());
    assert.match(result.stderr, /templates\/Bad\.tsx has 1 type error; publishing it anyway \(--strict refuses\):/);
    assert.match(result.stderr, BAD_ERROR);
    assert.match(result.stdout.toString(), /Published bad version 1/);
    assert.deepEqual((await published()).map(({ id, latestVersion }) => ({ id, latestVersion })), [{ id: 'bad', latestVersion: 1 }]);
  });

  test('--strict with --no-typecheck is a usage error', async () => {
    const result = await cli.run(['publish', 'templates/Bad.tsx', '--strict', '--no-typecheck'], { cwd: dir });
    assert.equal(result.code, 2, result.describe());
    assert.match(result.stderr, /--strict .* cannot go with --no-typecheck/);
  });
});

describe('--help says so', () => {
  test('check: the type check and --no-typecheck; publish: the warning and --strict', async () => {
    const cli = cliWithDataDir();
    const check = await cli.run(['check', '--help']);
    assert.match(check.stdout.toString(), /--no-typecheck/);
    assert.match(check.stdout.toString(), /type-check each template/);
    const publish = await cli.run(['publish', '--help']);
    assert.match(publish.stdout.toString(), /--strict +refuse to publish a template with type errors/);
    assert.match(publish.stdout.toString(), /Type errors are printed as a warning/);
  });
});
