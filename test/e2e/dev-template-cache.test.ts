/**
 * `imprint dev` and the local template cache, through the installed CLI on a project laid out as
 * a user has it (a template importing a CSS file). A template rendered by file previews in dev
 * from the cache: dev says so, and no cache file is written (a build always writes its entry).
 * A CSS file edited while dev runs is rebuilt; once dev has stopped, `imprint render` and
 * `publish` of the saved state bundle nothing (no entry written, publish says the build came
 * from the cache) and the PDF shows the edit. Started again, dev previews from its own kept
 * build, whose accessibility findings name the JSX line (the build render uses carries no
 * source positions).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { runCli, tempDir } from '../helpers/cli.js';
import { startDev, stopDev, waitForOutput, type DevProcess } from '../helpers/dev-process.js';
import { pdfText } from '../helpers/pdf.js';

const root = tempDir('imprint-dev-cache-');
const project = path.join(root, 'project');
const dataDir = path.join(root, 'data');
const entriesDir = path.join(dataDir, 'template-cache', 'entries');
/** A rebuild and print on a busy 2-core machine: the deadline of a wait, never a claim about speed. */
const WAIT_MS = 120_000;

const TEMPLATE = [
  "import './styles.css';",
  '',
  'export default function Template({ title }: { title: string }) {',
  '  return (',
  '    <main>',
  '      <h1>{title}</h1>',
  '      <p className="edition" />',
  '      <img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" width="10" height="10" />',
  '    </main>',
  '  );',
  '}',
  '',
  "Template.PreviewProps = { title: 'Cached' };",
  '',
].join('\n');
const STYLES = '.edition::after { content: "The red edition"; }\n';
/** The line of the <img> above, which has no alt text: the finding a dev build points at. */
const IMG_LINE = TEMPLATE.split('\n').findIndex((line) => line.includes('<img')) + 1;

fs.mkdirSync(project, { recursive: true });
fs.writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ name: 'dev-cache-project', private: true })}\n`);
fs.writeFileSync(path.join(project, 'Template.tsx'), TEMPLATE);
fs.writeFileSync(path.join(project, 'styles.css'), STYLES);

const env = { IMPRINT_DATA_DIR: dataDir, IMPRINT_CONFIG_DIR: path.join(root, 'config'), IMPRINT_RENDERER: 'off' };
const run = (args: string[]) => runCli(args, { cwd: project, timeoutMs: WAIT_MS, env });

/** Each cache entry with its inode: a build writes its entry anew (a new file renamed over), a reuse only reads it. */
const entries = () => (fs.existsSync(entriesDir) ? fs.readdirSync(entriesDir).filter((name) => name.endsWith('.json')).sort() : []);
const inodes = () => entries().map((name) => `${name}:${fs.statSync(path.join(entriesDir, name)).ino}`);

async function render(): Promise<string> {
  const out = path.join(root, `out-${Math.random().toString(36).slice(2)}.pdf`);
  const result = await run(['render', './Template.tsx', '-o', out]);
  assert.equal(result.code, 0, result.describe());
  return pdfText(fs.readFileSync(out));
}

/**
 * A preview's line: `✔ Template rendered with PreviewProps 1.2 s[, build from the template cache]`,
 * or `✖ Template: <its error> 1.2 s[, ...]`, so a failure is reported at once rather than at the deadline.
 */
const PREVIEW = /(✔|✖) Template(?: rendered with PreviewProps|: .*) [\d.]+ s(, build from the template cache)?\n/;

/** The next preview after output offset `from`: it rendered; whether its build came from the cache. */
async function nextPreview(from: number): Promise<{ fromCache: boolean }> {
  const line = await waitForOutput(dev!, PREVIEW, from, WAIT_MS);
  assert.equal(line[1], '✔', `the preview rendered:\n${dev!.output()}`);
  return { fromCache: line[2] !== undefined };
}

let dev: DevProcess | undefined;
after(async () => {
  try {
    await stopDev(dev);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a template rendered by file previews in dev without a bundle', { timeout: 5 * 60_000 }, async () => {
  assert.match(await render(), /Cached\s+The red edition/);
  const rendered = inodes();
  assert.equal(rendered.length, 1, 'the render kept its build');

  dev = await startDev(project, dataDir);
  assert.equal((await nextPreview(0)).fromCache, true, `the first preview came from the cache:\n${dev.output()}`);
  assert.deepEqual(inodes(), rendered, 'nothing was built, so nothing was written');
  const pdf = Buffer.from(await (await fetch(new URL('/t/Template/pdf', dev.url))).arrayBuffer());
  assert.match(pdfText(pdf), /Cached\s+The red edition/);
});

test('a CSS file edited while dev runs: after dev stops, render and publish of it bundle nothing and show the edit', { timeout: 5 * 60_000 }, async () => {
  assert.ok(dev, 'dev runs (the test before started it)');
  const from = dev.output().length;
  fs.writeFileSync(path.join(project, 'styles.css'), STYLES.replace('red', 'blue'));
  assert.equal((await nextPreview(from)).fromCache, false, 'the edit was bundled by dev');
  assert.equal(await stopDev(dev), 0, dev.output());
  // The render's build of the old CSS, dev's build of the new one, and the publish build of the new one that dev made.
  assert.equal(entries().length, 3, `cache entries: ${entries().join(', ')}\n${dev.output()}`);

  const kept = inodes();
  assert.match(await render(), /Cached\s+The blue edition/, 'the render shows the edit');
  assert.deepEqual(inodes(), kept, 'the render bundled nothing');

  const published = await run(['publish', './Template.tsx', '--no-typecheck']);
  assert.equal(published.code, 0, published.describe());
  assert.match(published.stderr + published.stdout.toString(), /unchanged: from the template cache/, published.describe());
  assert.deepEqual(inodes(), kept, 'the publish bundled nothing');
});

test("dev started again previews from its own kept build: no bundle, and its findings name the template's line", { timeout: 5 * 60_000 }, async () => {
  const kept = inodes();
  dev = await startDev(project, dataDir);
  assert.equal((await nextPreview(0)).fromCache, true, `the first preview came from the cache:\n${dev.output()}`);
  await waitForOutput(dev, /Template: \d+ accessibility findings? /, 0, WAIT_MS);
  const state = (await (await fetch(new URL('/t/Template/state', dev.url))).json()) as { a11y?: { findings: { rule: string; at?: { file: string; line: number } }[] } };
  const imageAlt = state.a11y?.findings.find((finding) => finding.rule === 'image-alt');
  assert.ok(imageAlt, JSON.stringify(state.a11y));
  assert.deepEqual(imageAlt.at && { file: path.basename(imageAlt.at.file), line: imageAlt.at.line }, { file: 'Template.tsx', line: IMG_LINE }, 'the build had source positions: dev\'s own');
  assert.deepEqual(inodes(), kept, 'nothing was built');
  assert.equal(await stopDev(dev), 0, dev.output());
});
