/**
 * The project `imprint init` writes, as a new user gets it from the installed package (issue
 * 35, item 4): `imprint init demo && cd demo && npm install && npx tsc --noEmit --strict`
 * passes, and the project's own imprint (its devDependency) renders the starter and
 * type-checks it with the project's TypeScript (item 5).
 *
 * The tarball is packed once and installed globally into an empty prefix with an empty HOME and
 * npm cache (package-kit.ts). The project's `npm install` resolves `"imprint": "^<version>"`;
 * the registry's `imprint` is an unrelated package, so the install goes through a loopback
 * registry that serves our tarball under that name and forwards every other package to npm's
 * configured registry (test/helpers/loopback-registry.ts). What init wrote is installed as it
 * is: only the registry the install asks differs.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../helpers/cli.js';
import { startLoopbackRegistry, type LoopbackRegistry } from '../helpers/loopback-registry.js';
import { newUser, pack, pdfText, run, tempDir } from './package-kit.js';

const INSTALL_MS = 15 * 60_000;
const COMMAND_MS = 180_000;
const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const work = tempDir('imprint-init-project-');
let user: Awaited<ReturnType<typeof newUser>>;
let registry: LoopbackRegistry | undefined;
const demo = path.join(work, 'projects', 'demo');

before(async () => {
  const { tarball } = await pack(path.join(work, 'pack'));
  user = await newUser(path.join(work, 'user'));
  const installed = await run('npm', ['install', '-g', tarball], { cwd: work, env: user.env, timeoutMs: INSTALL_MS });
  assert.equal(installed.code, 0, installed.describe());
  // npm's configured registry for this user (the default unless the machine's npm says otherwise).
  const configured = await run('npm', ['config', 'get', 'registry'], { cwd: work, env: user.env, timeoutMs: COMMAND_MS });
  assert.equal(configured.code, 0, configured.describe());
  registry = await startLoopbackRegistry({ upstream: configured.stdout.trim(), publish: [{ tarball }] });
  fs.mkdirSync(path.dirname(demo), { recursive: true });
}, { timeout: 25 * 60_000 });

after(async () => {
  await registry?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Every file of the project init wrote (node_modules aside), with its text. */
function projectFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && !path.relative(dir, file).startsWith('node_modules')) files.set(path.relative(dir, file), fs.readFileSync(file, 'latin1'));
  }
  return files;
}

const tsc = (args: string[]) => run('npx', ['tsc', ...args], { cwd: demo, env: user.env, timeoutMs: COMMAND_MS });

describe('imprint init demo, from the installed package', () => {
  test('writes imprint into devDependencies at its own version, and no path of this machine', { timeout: 5 * 60_000 }, async () => {
    const init = await run('imprint', ['init', 'demo'], { cwd: path.dirname(demo), env: user.env, timeoutMs: COMMAND_MS });
    assert.equal(init.code, 0, init.describe());
    const manifest = JSON.parse(fs.readFileSync(path.join(demo, 'package.json'), 'utf8'));
    assert.equal(manifest.devDependencies.imprint, `^${version}`);
    assert.ok(manifest.devDependencies['@types/react'] && manifest.devDependencies.typescript, JSON.stringify(manifest));

    // A committed project works on every clone: nothing names where imprint or the project is installed.
    const files = projectFiles(demo);
    assert.ok(files.size >= 10, [...files.keys()].join(', '));
    for (const [file, text] of files) {
      for (const local of [user.prefix, user.home, work, ROOT]) assert.ok(!text.includes(local), `${file} names ${local}`);
    }
    const tsconfig = JSON.parse(files.get('tsconfig.json')!);
    assert.equal(tsconfig.compilerOptions.paths, undefined, 'no paths into an imprint install');
    assert.deepEqual(tsconfig.compilerOptions.types, ['imprint/client']);
  });

  test('npm install, then `npx tsc --noEmit --strict` passes, and the project\'s imprint renders the starter', { timeout: 25 * 60_000 }, async () => {
    const installed = await run('npm', ['install', '--registry', registry!.url], { cwd: demo, env: user.env, timeoutMs: INSTALL_MS });
    assert.equal(installed.code, 0, `${installed.describe()}\n--- registry\n${registry!.log.join('\n')}`);
    // The imprint installed is this build's tarball, not the registry's package of that name.
    const lock = JSON.parse(fs.readFileSync(path.join(demo, 'package-lock.json'), 'utf8'));
    assert.equal(lock.packages['node_modules/imprint'].version, version);
    assert.equal(lock.packages['node_modules/imprint'].integrity, registry!.integrity.imprint);

    const checked = await tsc(['--noEmit', '--strict']);
    assert.equal(checked.code, 0, checked.describe());

    const rendered = await run('npx', ['imprint', 'render', 'templates/Invoice.tsx', '--props', 'templates/Invoice.props.json', '-o', 'invoice.pdf'], { cwd: demo, env: user.env, timeoutMs: COMMAND_MS });
    assert.equal(rendered.code, 0, rendered.describe());
    const props = JSON.parse(fs.readFileSync(path.join(demo, 'templates', 'Invoice.props.json'), 'utf8'));
    const text = await pdfText(path.join(demo, 'invoice.pdf'));
    assert.match(text.stdout, new RegExp(props.number), text.describe());
    assert.match(text.stdout, new RegExp(props.customer.name), text.describe());
  });

  test('its types know what the bundler builds: CSS modules, images and text files typed, wrong uses refused', { timeout: 5 * 60_000 }, async () => {
    const templates = path.join(demo, 'templates');
    fs.writeFileSync(path.join(templates, 'extras.module.css'), '.note { color: #66788a; }\n');
    fs.writeFileSync(path.join(templates, 'terms.md'), '# Terms\n');
    fs.copyFileSync(path.join(ROOT, 'test', 'fixtures', 'project-paths', 'templates', 'dot.png'), path.join(templates, 'dot.png'));
    const extras = [
      "import { Document, Header } from 'imprint/react';",
      "import styles from './extras.module.css';",
      "import dot from './dot.png';",
      "import terms from './terms.md';",
      "import logo from './static/logo.svg';",
      '',
      'export default function Extras() {',
      '  const note: string = styles.note;',
      '  return (',
      '    <Document size="A5">',
      '      <Header pages="first" />',
      '      <img src={dot} alt="" />',
      '      <p className={note}>{terms.length + logo.length}</p>',
      '    </Document>',
      '  );',
      '}',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(templates, 'Extras.tsx'), extras);
    const typed = await tsc(['--noEmit', '--strict']);
    assert.equal(typed.code, 0, typed.describe());

    // An image is a URL string, not any; imprint/react's props are checked.
    fs.writeFileSync(path.join(templates, 'Extras.tsx'), extras.replace("'./dot.png';", "'./dot.png';\nconst size: number = dot;").replace('pages="first"', 'pages="sometimes"'));
    const refused = await tsc(['--noEmit', '--strict']);
    assert.notEqual(refused.code, 0, refused.describe());
    assert.match(refused.stdout, /Extras\.tsx\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
    assert.match(refused.stdout, /Extras\.tsx\(\d+,\d+\): error TS2322: Type '"sometimes"' is not assignable/);
    assert.equal(refused.stdout.match(/error TS\d+/g)?.length, 2, refused.stdout);
    fs.rmSync(path.join(templates, 'Extras.tsx'));
  });

  test('the project\'s imprint type-checks it with the project\'s TypeScript: `imprint check` passes, then fails on a type error, and `publish --strict` refuses it', { timeout: 10 * 60_000 }, async () => {
    const imprint = (args: string[]) => run('npx', ['imprint', ...args], { cwd: demo, env: { ...user.env, IMPRINT_DATA_DIR: path.join(work, 'data') }, timeoutMs: COMMAND_MS });
    const passed = await imprint(['check']);
    assert.equal(passed.code, 0, passed.describe());
    assert.match(passed.stdout, /✔ templates\/Invoice\.tsx rendered, PreviewProps match the props type, no type errors/);
    assert.match(passed.stderr, /Type-checked 1 template with TypeScript [\d.]+ \(the project's\) and tsconfig\.json/);

    const template = path.join(demo, 'templates', 'Invoice.tsx');
    const original = fs.readFileSync(template, 'utf8');
    fs.writeFileSync(template, original.replace('const tax = Math.round', 'const tax: string = Math.round'));
    const failed = await imprint(['check']);
    assert.equal(failed.code, 1, failed.describe());
    assert.match(failed.stdout, /templates\/Invoice\.tsx:\d+:\d+ - error TS2322: Type 'number' is not assignable to type 'string'\./);
    const refused = await imprint(['publish', 'templates/Invoice.tsx', '--strict']);
    assert.equal(refused.code, 1, refused.describe());
    assert.match(refused.stderr, /not published \(--strict\)/);
    fs.writeFileSync(template, original);
  });
});
