/**
 * Imprint as npm ships it, installed the three ways users reach it (issue 21): globally
 * (`npm install -g`), with npx in an empty folder, and as a devDependency of a templates
 * project whose templates import `imprint/react` and whose Node script uses the library.
 * One `npm pack` for the file; each install as a new user of this machine (own HOME, npm
 * cache and prefix: package-kit.ts), from the npm registry, on a machine that cannot reach
 * GitHub. Nothing is compiled (issue 36): the store runs on Node's own node:sqlite, and the
 * global install runs with every compiler and build tool on PATH replaced by a stand-in that
 * records its call and fails (package-kit.ts compilerTrap).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../helpers/cli.js';
import { compilerTrap, diskUsage, newUser, pack, packagesWithInstallScripts, pdfText, run, tempDir } from './package-kit.js';

const MiB = 1024 * 1024;
const MB = 1000 * 1000;
const INSTALL_MS = 15 * 60_000;
const COMMAND_MS = 180_000;
const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const ourDevVersions = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;

const work = tempDir('imprint-package-');
let tarball = '';
let user: Awaited<ReturnType<typeof newUser>>;

const installEnv = (): Record<string, string | undefined> => user.env;

before(async () => {
  const packed = await pack(path.join(work, 'pack'));
  tarball = packed.tarball;
  // What runs and nothing else: no sources but the init starter, no tests, benches or fixtures.
  const unexpected = packed.files.filter((file) => /^(test|bench|templates-example|scripts)\//.test(file) || (/^src\//.test(file) && !file.startsWith('src/cli/init-template/')) || file.endsWith('.map'));
  assert.deepEqual(unexpected, [], 'files the package should not carry');
  for (const file of ['bin/imprint.js', 'dist/cli.js', 'dist/lib/index.js', 'dist/types/lib/index.d.ts', 'dist/react/index.js', 'dist/types/react/index.d.ts', 'dist/runtime/mount.js', 'dist/web/manifest.json', 'dist/core/pdf/icc/sRGB.icc', 'dist/core/pdf/icc/LICENSE', 'src/cli/init-template/templates/Invoice.tsx', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
    assert.ok(packed.files.includes(file), `the package carries ${file}`);
  }
  // The guides that README links, --help and messages point at (test/e2e/docs-links.test.ts checks each link).
  const guides = fs.readdirSync(path.join(ROOT, 'docs')).map((name) => `docs/${name}`);
  assert.deepEqual(guides.filter((file) => !packed.files.includes(file)), [], 'the package carries every guide in docs/');
  assert.ok(packed.bytes < 3.5 * MiB, `tarball ${(packed.bytes / MiB).toFixed(2)} MiB, budget 3.5 MiB`);
  // One npm cache for the run's three installs: the registry's files are downloaded once.
  user = await newUser(path.join(work, 'user'));
  console.log(`# tarball: ${(packed.bytes / MiB).toFixed(2)} MiB, ${packed.files.length} files`);
}, { timeout: 6 * 60_000 });

after(async () => {
  fs.rmSync(work, { recursive: true, force: true });
});

/** `imprint serve` until it listens; returns its URL and a stop that waits for its exit. */
function startServe(env: Record<string, string | undefined>, cwd: string): Promise<{ url: string; output(): string; stop(): Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = spawn('imprint', ['serve', '--port', '0', '--log-level', 'warn'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    let output = '';
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`imprint serve did not listen within 60 s:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (!listening) return;
      clearTimeout(timer);
      resolve({
        url: listening[1],
        output: () => output,
        async stop() {
          child.kill('SIGTERM');
          const deadline = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 30_000);
          try {
            return await exited;
          } finally {
            clearTimeout(deadline);
          }
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`imprint serve exited (${code}) before listening:\n${output}`));
    });
  });
}

const HELLO_TSX = `import { Document } from 'imprint/react';

export interface HelloProps {
  name: string;
}

export default function Hello({ name }: HelloProps) {
  return (
    <Document size="A5">
      <h1>Hello {name}</h1>
      <p>Rendered by an installed Imprint.</p>
    </Document>
  );
}

Hello.PreviewProps = { name: 'preview' } satisfies HelloProps;
`;

/** The init template rendered by the installed `imprint` with `flags` into `out`, its text checked. */
async function renderInvoice(demo: string, env: Record<string, string | undefined>, flags: string[], out: string): Promise<void> {
  const rendered = await run('imprint', ['render', 'templates/Invoice.tsx', ...flags, '-o', out], { cwd: demo, env, timeoutMs: COMMAND_MS });
  assert.equal(rendered.code, 0, rendered.describe());
  const text = await pdfText(path.join(demo, out));
  assert.match(text.stdout, /INV-0001/, text.describe());
}

/** `render --pdfa 2b` from the installed package: the document's text and PDF/A-2b identification in its XMP. */
async function assertPdfA2b(demo: string, env: Record<string, string | undefined>): Promise<void> {
  await renderInvoice(demo, env, ['--pdfa', '2b'], 'archive.pdf');
  const meta = await run('pdfinfo', ['-meta', 'archive.pdf'], { cwd: demo, env: process.env, timeoutMs: 30_000 });
  assert.match(meta.stdout, /<pdfaid:part>2<\/pdfaid:part>/, meta.describe());
}

/** `render --einvoice factur-x` from the installed package: the document's text, and the Factur-X XML attached (poppler's pdfdetach). */
async function assertFacturX(demo: string, env: Record<string, string | undefined>): Promise<void> {
  await renderInvoice(demo, env, ['--einvoice', 'factur-x'], 'einvoice.pdf');
  const list = await run('pdfdetach', ['-list', 'einvoice.pdf'], { cwd: demo, env: process.env, timeoutMs: 30_000 });
  assert.match(list.stdout, /^1: factur-x\.xml$/m, list.describe());
  const saved = await run('pdfdetach', ['-save', '1', '-o', 'factur-x.xml', 'einvoice.pdf'], { cwd: demo, env: process.env, timeoutMs: 30_000 });
  assert.equal(saved.code, 0, saved.describe());
  const xml = fs.readFileSync(path.join(demo, 'factur-x.xml'), 'utf8');
  assert.match(xml, /<rsm:CrossIndustryInvoice\b/);
  assert.match(xml, /<ram:ID>INV-0001<\/ram:ID>/);
}

describe('npm install -g <tarball>', () => {
  test('installs with an empty npm cache compiling nothing, within budget, then --version, init, render and serve work', { timeout: 30 * 60_000 }, async (t) => {
    const trap = compilerTrap(path.join(work, 'global-install'));
    const env = { ...installEnv(), PATH: `${trap.bin}${path.delimiter}${user.env.PATH}` };
    const installed = await run('npm', ['install', '-g', tarball], { cwd: work, env, timeoutMs: INSTALL_MS });
    assert.equal(installed.code, 0, installed.describe());
    assert.deepEqual(trap.ran(), [], 'no compiler or build tool ran during the install');
    // esbuild's postinstall only checks its platform binary (a package of its own); nothing else may ask for a script.
    assert.deepEqual(packagesWithInstallScripts(path.join(user.prefix, 'lib', 'node_modules', 'imprint', 'node_modules')), ['esbuild']);
    const bytes = await diskUsage(user.prefix);
    const report = `global install (empty npm cache, Node ${process.versions.node}): ${(installed.ms / 1000).toFixed(1)} s, ${(bytes / MB).toFixed(1)} MB on disk`;
    t.diagnostic(report);
    console.log(`# ${report}`);

    const projects = path.join(work, 'global-user');
    fs.mkdirSync(projects);
    const shown = await run('imprint', ['--version'], { cwd: projects, env: user.env, timeoutMs: COMMAND_MS });
    assert.equal(shown.stdout.trim(), version, shown.describe());

    const init = await run('imprint', ['init', 'demo'], { cwd: projects, env: user.env, timeoutMs: COMMAND_MS });
    assert.equal(init.code, 0, init.describe());
    const demo = path.join(projects, 'demo');
    const rendered = await run('imprint', ['render', 'templates/Invoice.tsx', '-o', 'x.pdf'], { cwd: demo, env: user.env, timeoutMs: COMMAND_MS });
    assert.equal(rendered.code, 0, rendered.describe());
    const text = await pdfText(path.join(demo, 'x.pdf'));
    assert.match(text.stdout, /INVOICE/);
    assert.match(text.stdout, /INV-0001/);
    assert.match(text.stdout, /Bluebird Coffee/);

    // PDF/A and e-invoices read files of the package at run time (the sRGB colour profile): they must ship.
    await assertPdfA2b(demo, user.env);
    await assertFacturX(demo, user.env);

    // The store (node:sqlite) opens without Node 22's experimental warning reaching the terminal or the service's log.
    const experimental = /ExperimentalWarning|experimental feature/;
    const listed = await run('imprint', ['list', '--embedded'], { cwd: demo, env: user.env, timeoutMs: COMMAND_MS });
    assert.equal(listed.code, 0, listed.describe());
    assert.doesNotMatch(listed.stderr, experimental, listed.describe());

    const served = await startServe(user.env, projects);
    try {
      const health = await fetch(new URL('/healthz', served.url));
      assert.equal(health.status, 200, await health.text());
    } finally {
      assert.equal(await served.stop(), 0);
    }
    assert.doesNotMatch(served.output(), experimental, served.output());
    // Last, so that a budget overrun does not hide whether the installed commands work.
    assert.ok(bytes < 150 * MB, `global install ${(bytes / MB).toFixed(1)} MB on disk, budget 150 MB`);
  });
});

describe('npx --package <tarball> imprint', () => {
  test('renders a template in an empty folder', { timeout: 20 * 60_000 }, async () => {
    const folder = path.join(work, 'npx-folder');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'Hello.tsx'), HELLO_TSX);
    fs.writeFileSync(path.join(folder, 'props.json'), JSON.stringify({ name: 'npx' }));
    // Not the global install's imprint: npx installs the tarball into its own cache folder.
    const env = { ...installEnv(), PATH: process.env.PATH };
    const rendered = await run('npx', ['--yes', '--package', tarball, 'imprint', 'render', './Hello.tsx', '--props', 'props.json', '-o', 'hello.pdf'], { cwd: folder, env, timeoutMs: INSTALL_MS });
    assert.equal(rendered.code, 0, rendered.describe());
    const text = await pdfText(path.join(folder, 'hello.pdf'));
    assert.match(text.stdout, /Hello npx/);
  });
});

describe('a templates project with imprint in devDependencies', () => {
  const project = path.join(work, 'project');

  before(async () => {
    fs.mkdirSync(path.join(project, 'templates'), { recursive: true });
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({
        name: 'acme-templates',
        private: true,
        type: 'module',
        devDependencies: {
          imprint: `file:${tarball}`,
          typescript: ourDevVersions.typescript ?? '^5.9.3',
          '@types/react': ourDevVersions['@types/react'],
          '@types/node': ourDevVersions['@types/node'],
        },
      }),
    );
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', jsx: 'react-jsx', strict: true, noEmit: true, lib: ['ES2022', 'DOM'], types: ['node'] },
        include: ['templates', 'app.ts'],
      }),
    );
    fs.writeFileSync(path.join(project, 'templates', 'Hello.tsx'), HELLO_TSX);
    // The library's types as an app meets them; the marked line must stay an error.
    fs.writeFileSync(
      path.join(project, 'app.ts'),
      [
        "import { createImprint, ImprintError, type DocumentSize, type ErrorCode } from 'imprint';",
        '',
        'const imprint = createImprint({ dataDir: process.env.DATA_DIR });',
        "const size: DocumentSize = '100mm 150mm';",
        "const pdf: Uint8Array = await imprint.render('templates/Hello.tsx', { name: 'types' }, { size, orientation: 'landscape' });",
        "const html: Uint8Array = await imprint.generate({ html: '<h1>hi</h1>' }, { size: 'letter' });",
        'const listed: { id: string; version: number; publishedAt: string }[] = await imprint.list();',
        "const published: { id: string; version: number } = await imprint.publish('templates/Hello.tsx', { id: 'hello' });",
        'try {',
        "  await imprint.render('missing');",
        '} catch (error) {',
        '  if (error instanceof ImprintError) { const code: ErrorCode = error.code; console.log(code); }',
        '}',
        '// @ts-expect-error a size is a DocumentSize, not any string',
        "await imprint.render('hello', {}, { size: 'B7' });",
        'await imprint.close();',
        'console.log(pdf.length, html.length, listed.length, published.version);',
        '',
      ].join('\n'),
    );
    // The script a Node app would write: generate and render a local .tsx with the library.
    fs.writeFileSync(
      path.join(project, 'batch.mjs'),
      [
        "import fs from 'node:fs';",
        "import { createImprint } from 'imprint';",
        '',
        'const imprint = createImprint({ dataDir: process.env.DATA_DIR });',
        'try {',
        "  fs.writeFileSync('generated.pdf', await imprint.generate({ html: '<h1>Generated by the library</h1>' }, { size: 'A5' }));",
        "  for (const name of ['Ada', 'Grace']) fs.writeFileSync(`hello-${name}.pdf`, await imprint.render('templates/Hello.tsx', { name }));",
        "  const published = await imprint.publish('templates/Hello.tsx');",
        "  fs.writeFileSync('published.pdf', await imprint.render(published.id, { name: 'Published' }));",
        '  console.log(JSON.stringify({ published, list: await imprint.list() }));',
        '} finally {',
        '  await imprint.close();',
        '}',
        '',
      ].join('\n'),
    );
    const installed = await run('npm', ['install'], { cwd: project, env: installEnv(), timeoutMs: INSTALL_MS });
    assert.equal(installed.code, 0, installed.describe());
  }, { timeout: 20 * 60_000 });

  test('tsc --strict passes on templates importing imprint/react and on the library, and the marked line stays an error', { timeout: 5 * 60_000 }, async () => {
    const react = path.join(project, 'node_modules', 'imprint', 'dist', 'react');
    assert.ok(fs.existsSync(path.join(react, 'index.js')), 'imprint/react ships JavaScript');
    assert.ok(!fs.existsSync(path.join(project, 'node_modules', 'imprint', 'src', 'react')), 'and no TypeScript sources');
    const checked = await run('npx', ['tsc', '-p', '.'], { cwd: project, env: user.env, timeoutMs: COMMAND_MS });
    assert.equal(checked.code, 0, checked.describe());

    const unmarked = fs.readFileSync(path.join(project, 'app.ts'), 'utf8').replace(/^\/\/ @ts-expect-error.*\n/m, '');
    fs.writeFileSync(path.join(project, 'app-unmarked.ts'), unmarked);
    const refused = await run('npx', ['tsc', '--noEmit', '--strict', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022', '--types', 'node', 'app-unmarked.ts'], { cwd: project, env: user.env, timeoutMs: COMMAND_MS });
    assert.notEqual(refused.code, 0, 'without @ts-expect-error the line is an error');
    assert.match(refused.stdout, /"B7"/);
  });

  test('the project\'s imprint renders, and a Node script generates and renders with the library', { timeout: 10 * 60_000 }, async () => {
    const env = { ...user.env, DATA_DIR: path.join(project, '.imprint-data') };
    const shown = await run('npx', ['imprint', '--version'], { cwd: project, env, timeoutMs: COMMAND_MS });
    assert.equal(shown.stdout.trim(), version, shown.describe());

    const script = await run(process.execPath, ['batch.mjs'], { cwd: project, env, timeoutMs: COMMAND_MS });
    assert.equal(script.code, 0, script.describe());
    const report = JSON.parse(script.stdout.trim().split('\n').at(-1)!) as { published: { id: string; version: number }; list: { id: string; version: number }[] };
    assert.equal(report.published.id, 'hello');
    assert.deepEqual(report.list.map(({ id, version: v }) => ({ id, version: v })), [{ id: 'hello', version: 1 }]);
    assert.match((await pdfText(path.join(project, 'generated.pdf'))).stdout, /Generated by the library/);
    assert.match((await pdfText(path.join(project, 'hello-Ada.pdf'))).stdout, /Hello Ada/);
    assert.match((await pdfText(path.join(project, 'hello-Grace.pdf'))).stdout, /Hello Grace/);
    assert.match((await pdfText(path.join(project, 'published.pdf'))).stdout, /Hello Published/);
  });
});
