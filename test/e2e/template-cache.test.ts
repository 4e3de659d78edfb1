/**
 * The local template cache (issue 40), through the installed CLI: a template project laid out
 * as a user has it (a component, a CSS file, a static file, a package in node_modules), rendered
 * by file again and again. Every edit of something the build read shows in the next PDF (text
 * by pdftotext, colours by pdftoppm's pixels); nothing else rebuilds (seen in the warm
 * renderer's status and in the cache folder, never by timing); the folder stays within its
 * bound; a corrupt entry is rebuilt; two renders at once leave a readable cache. A render by
 * file reaches the warm renderer: its served count moves.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { runCli, tempDir, type CliOptions } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { isAlive, waitForPidExit } from '../helpers/pid-exit.js';

const root = tempDir('imprint-template-cache-');
const project = path.join(root, 'project');
const dataDir = path.join(root, 'data');
const cacheDir = path.join(dataDir, 'template-cache');
const runDir = path.join(root, 'run');

const RED = '#ff0000';
const BLUE = '#0000ff';
const GREEN = '#00ff00';

const FILES: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'cache-project', private: true }, null, 2)}\n`,
  'Template.tsx': [
    "import './styles.css';",
    "import Header from './Header';",
    "import greeting from 'x-greeting';",
    '',
    'export default function Template() {',
    '  return (',
    '    <main>',
    '      <Header />',
    '      <p>{greeting}</p>',
    '      <div className="swatch" />',
    '      <img className="block" src="/static/block.svg" />',
    '    </main>',
    '  );',
    '}',
    '',
  ].join('\n'),
  'Header.tsx': 'export default function Header() {\n  return <h1>Header one</h1>;\n}\n',
  'styles.css': `body { margin: 0; }\n.swatch { width: 100%; height: 300px; background: ${RED}; }\n.block { display: block; width: 100%; height: 300px; }\n`,
  'static/block.svg': svg(RED),
  'node_modules/x-greeting/package.json': `${JSON.stringify({ name: 'x-greeting', version: '1.0.0', main: 'index.js' })}\n`,
  'node_modules/x-greeting/index.js': "module.exports = 'Greeting from x';\n",
};

function svg(fill: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" preserveAspectRatio="none"><rect width="100" height="100" fill="${fill}"/></svg>\n`;
}

function write(name: string, contents: string) {
  const file = path.join(project, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, contents);
}
for (const [name, contents] of Object.entries(FILES)) write(name, contents);

const env = {
  IMPRINT_DATA_DIR: dataDir,
  IMPRINT_CONFIG_DIR: path.join(root, 'config'),
  IMPRINT_RUNTIME_DIR: runDir,
  IMPRINT_RENDERER_IDLE: '5m',
};
const run = (args: string[], options: CliOptions = {}) => runCli(args, { cwd: project, timeoutMs: 120_000, ...options, env: { ...env, ...options.env } });

after(async () => {
  const stop = await run(['renderer', 'stop', '--all']);
  // Whatever the stop said, no renderer of this test outlives it.
  for (const entry of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let environ = '';
    try {
      environ = fs.readFileSync(`/proc/${entry}/environ`, 'utf8');
    } catch {
      continue;
    }
    if (environ.split('\0').includes(`IMPRINT_RUNTIME_DIR=${runDir}`) && isAlive(Number(entry))) {
      process.kill(Number(entry), 'SIGKILL');
      await waitForPidExit(Number(entry));
    }
  }
  fs.rmSync(root, { recursive: true, force: true });
  assert.equal(stop.code, 0, stop.describe());
});

/** Renders Template.tsx (on the warm renderer unless `inProcess`); answers the PDF. */
async function render(options: { inProcess?: boolean; env?: Record<string, string> } = {}): Promise<Buffer> {
  const out = path.join(root, `out-${Math.random().toString(36).slice(2)}.pdf`);
  const result = await run(['render', './Template.tsx', '-o', out], { env: { IMPRINT_RENDERER: options.inProcess ? 'off' : 'on', ...options.env } });
  assert.equal(result.code, 0, result.describe());
  return fs.readFileSync(out);
}

/** The colour of the page at (x, y), fractions of its width and height, from pdftoppm's rendering at 20 dpi. */
function colourAt(pdf: Buffer, x: number, y: number): string {
  const file = path.join(root, 'page.pdf');
  fs.writeFileSync(file, pdf);
  const ppm = execFileSync('pdftoppm', ['-r', '20', '-singlefile', '-f', '1', '-l', '1', file], { timeout: 30_000 });
  // P6 header: magic, width, height, maxval, each followed by whitespace.
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 50).toString('latin1'));
  assert.ok(header, 'pdftoppm wrote a PPM');
  const [width, height] = [Number(header[1]), Number(header[2])];
  const at = header[0].length + (Math.floor(y * height) * width + Math.floor(x * width)) * 3;
  return `#${[...ppm.subarray(at, at + 3)].map((value) => (value > 127 ? 'ff' : '00')).join('')}`;
}

// The swatch (styles.css) covers the top 300 px of an A4 page (1123 px tall at 96 dpi); the static block the next 300.
const swatch = (pdf: Buffer) => colourAt(pdf, 0.5, 0.22);
const block = (pdf: Buffer) => colourAt(pdf, 0.5, 0.4);

interface Status {
  running: boolean;
  served?: number;
  templateFiles?: { built: number; reused: number };
}
async function status(): Promise<Status> {
  const result = await run(['renderer', 'status', '--json'], { env: { IMPRINT_RENDERER: 'on' } });
  assert.equal(result.code, 0, result.describe());
  return JSON.parse(result.stdout.toString()) as Status;
}

const entries = () => (fs.existsSync(path.join(cacheDir, 'entries')) ? fs.readdirSync(path.join(cacheDir, 'entries')).filter((name) => name.endsWith('.json')).sort() : []);
/** Each entry's inode: a rewrite (an atomic write is a new file renamed over) changes it; a read does not. */
const inodes = () => entries().map((name) => `${name}:${fs.statSync(path.join(cacheDir, 'entries', name)).ino}`);

test('a render by file reaches the warm renderer, rebuilds after every edit of what it was built from, and nothing else', { timeout: 10 * 60_000 }, async () => {
  // Started first, and waited for: on a loaded machine a render's own start of it may give up and render in-process.
  const started = await run(['renderer', 'start'], { env: { IMPRINT_RENDERER: 'on' } });
  assert.equal(started.code, 0, started.describe());
  let pdf = await render();
  assert.match(pdfText(pdf), /Header one\s+Greeting from x/);
  assert.equal(swatch(pdf), RED);
  assert.equal(block(pdf), RED);
  const first = await status();
  assert.equal(first.running, true);
  assert.deepEqual(first.templateFiles, { built: 1, reused: 0 });
  assert.equal(entries().length, 1);

  // Unchanged: served from the renderer's memory, nothing built, nothing written.
  const before = inodes();
  await render();
  await render();
  const warm = await status();
  assert.equal(warm.served, (first.served ?? 0) + 2, 'the renders by file were served by the renderer');
  assert.deepEqual(warm.templateFiles, { built: 1, reused: 2 });
  assert.deepEqual(inodes(), before, 'no entry was written again');

  // Touched but not edited (a checkout, an editor's save without change): read, found the same, not rebuilt.
  const now = new Date();
  fs.utimesSync(path.join(project, 'styles.css'), now, now);
  await render();
  assert.equal((await status()).templateFiles?.built, 1);

  let built = 1;
  const rebuilds = async (what: string) => {
    const next = await render();
    built++;
    assert.equal((await status()).templateFiles?.built, built, `${what}: rebuilt`);
    return next;
  };

  write('styles.css', FILES['styles.css'].replace(RED, BLUE));
  pdf = await rebuilds('the imported CSS file');
  assert.equal(swatch(pdf), BLUE, 'the CSS edit shows in the next render');

  write('Header.tsx', FILES['Header.tsx'].replace('Header one', 'Header two'));
  pdf = await rebuilds('the imported component');
  assert.match(pdfText(pdf), /Header two/);

  write('static/block.svg', svg(GREEN));
  pdf = await rebuilds('the static file');
  assert.equal(block(pdf), GREEN, 'the static file edit shows');

  write('node_modules/x-greeting/package.json', FILES['node_modules/x-greeting/package.json'].replace('1.0.0', '1.0.1'));
  await rebuilds("the package's version");

  write('node_modules/x-greeting/index.js', "module.exports = 'Greeting from x, patched';\n");
  pdf = await rebuilds("the package's code");
  assert.match(pdfText(pdf), /Greeting from x, patched/);

  // A PostCSS config appearing in the project changes how the CSS builds.
  write('mark-plugin.cjs', "module.exports = () => ({ postcssPlugin: 'mark', Declaration: { background(decl) { decl.value = decl.value.replace('#0000ff', '#00ff00'); } } });\nmodule.exports.postcss = true;\n");
  write('postcss.config.cjs', "module.exports = { plugins: { './mark-plugin.cjs': {} } };\n");
  pdf = await rebuilds('a PostCSS config added');
  assert.equal(swatch(pdf), GREEN, 'the new config ran');
  // Edited in the same renderer: loaded afresh, not the copy it loaded before.
  write('postcss.config.cjs', 'module.exports = { plugins: {} };\n');
  pdf = await rebuilds('the PostCSS config edited');
  assert.equal(swatch(pdf), BLUE, 'the edited config ran');

  // Undoing an edit finds the entry built for that content again: reused, not rebuilt.
  write('postcss.config.cjs', "module.exports = { plugins: { './mark-plugin.cjs': {} } };\n");
  pdf = await render();
  assert.equal(swatch(pdf), GREEN);
  assert.equal((await status()).templateFiles?.built, built, 'the earlier entry was found by its key');
});

test('in a new process the cache folder answers; a corrupt entry is rebuilt; two renders at once leave it readable; it stays within its bound', { timeout: 10 * 60_000 }, async () => {
  // In-process renders (no renderer): the cache folder is all they share.
  let pdf = await render({ inProcess: true });
  const kept = inodes();
  pdf = await render({ inProcess: true });
  assert.deepEqual(inodes(), kept, 'an unchanged template is not rebuilt by a new process');
  assert.match(pdfText(pdf), /Greeting from x/);

  // A corrupt entry (cut short): rebuilt and replaced, the render succeeds.
  const index = fs.readdirSync(path.join(cacheDir, 'index')).map((name) => JSON.parse(fs.readFileSync(path.join(cacheDir, 'index', name), 'utf8')) as { file: string; key: string });
  const current = index.find((record) => record.file === fs.realpathSync(path.join(project, 'Template.tsx')))!;
  const entryFile = path.join(cacheDir, 'entries', `${current.key}.json`);
  fs.writeFileSync(entryFile, fs.readFileSync(entryFile).subarray(0, 100));
  pdf = await render({ inProcess: true });
  assert.match(pdfText(pdf), /Header two/);
  assert.doesNotThrow(() => JSON.parse(fs.readFileSync(entryFile, 'utf8')), 'the corrupt entry was replaced whole');
  // Garbage in the index: the same.
  const indexFile = path.join(cacheDir, 'index', fs.readdirSync(path.join(cacheDir, 'index')).find((name) => fs.readFileSync(path.join(cacheDir, 'index', name), 'utf8').includes(current.key))!);
  fs.writeFileSync(indexFile, '{"format": 12');
  await render({ inProcess: true });
  assert.doesNotThrow(() => JSON.parse(fs.readFileSync(indexFile, 'utf8')));

  // Two renders at once after an edit: both build and write; both succeed, and what is left reads.
  write('Header.tsx', FILES['Header.tsx'].replace('Header one', 'Header three'));
  const [a, b] = await Promise.all([render({ inProcess: true }), render({ inProcess: true })]);
  for (const both of [a, b]) assert.match(pdfText(both), /Header three/);
  for (const name of entries()) assert.doesNotThrow(() => JSON.parse(fs.readFileSync(path.join(cacheDir, 'entries', name), 'utf8')), name);
  assert.equal(fs.readdirSync(path.join(cacheDir, 'entries')).filter((name) => name.startsWith('.')).length, 0, 'no temp file left behind');
  const settled = inodes();
  await render({ inProcess: true });
  assert.deepEqual(inodes(), settled, 'the entry the two wrote is used as it is');

  // The bound: room for one entry and a half; three new builds leave the folder within it.
  const entrySize = fs.statSync(path.join(cacheDir, 'entries', entries()[0])).size;
  const bound = Math.floor(entrySize * 1.5);
  for (const n of [4, 5, 6]) {
    write('Header.tsx', FILES['Header.tsx'].replace('Header one', `Header ${n}`));
    pdf = await render({ inProcess: true, env: { IMPRINT_TEMPLATE_CACHE_SIZE: String(bound) } });
    assert.match(pdfText(pdf), new RegExp(`Header ${n}`));
  }
  const total = ['index', 'entries'].flatMap((kind) => fs.readdirSync(path.join(cacheDir, kind)).map((name) => fs.statSync(path.join(cacheDir, kind, name)).size)).reduce((sum, size) => sum + size, 0);
  assert.ok(total <= bound, `the folder holds ${total} bytes, within its bound of ${bound}`);
  assert.equal(entries().length, 1, 'the newest entry is kept, the older ones dropped');
  // What was kept is the newest: the next render of it builds nothing.
  const newest = inodes();
  await render({ inProcess: true, env: { IMPRINT_TEMPLATE_CACHE_SIZE: String(bound) } });
  assert.deepEqual(inodes(), newest);
});

test('imprint cache clear empties the folder; the next render builds again', { timeout: 5 * 60_000 }, async () => {
  await render({ inProcess: true });
  assert.ok(entries().length > 0);
  const cleared = await run(['cache', 'clear']);
  assert.equal(cleared.code, 0, cleared.describe());
  assert.match(cleared.stderr + cleared.stdout.toString(), /template-cache/);
  assert.deepEqual(entries(), []);
  await render({ inProcess: true });
  assert.equal(entries().length, 1);
});
