/**
 * The README's first screens, run as an npm user would: its blocks are read from README.md (so
 * an edit of the README changes what runs here) and run in an empty HOME, npm cache and global
 * prefix (package-kit's newUser), with Imprint from this checkout's `npm pack`.
 *
 * - `<!-- npm-quickstart -->`: install, `imprint init demo`, render. The PDF named by the
 *   block's last `-o` is checked by pdftotext against the props file the block renders.
 * - `<!-- render.mjs -->` (the library snippet) is written as demo/render.mjs, and the
 *   `<!-- library -->` block installs imprint into the project and runs it; the PDF it writes
 *   is checked against the props written in the snippet.
 *
 * The one change made to what the README says: `npm i -g imprint` and `npm i imprint` install
 * the tarball of `npm pack` in place of the package name, so that the registry's `imprint`
 * (someone else's, or an older release) is never what is tested. Each such line is replaced
 * whole, only when it reads exactly so; the test fails if the README stops saying it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT } from '../helpers/cli.js';
import { markedBlocks, runScript, scriptOf, sweep, type DocBlock } from '../helpers/doc-blocks.js';
import { newUser, pack, pdfText, run, tempDir } from './package-kit.js';

const RUN_DEADLINE_MS = 6 * 60_000;
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

const dir = tempDir('imprint-readme-npm-');
const work = path.join(dir, 'work');
let tarball: string;
let env: Record<string, string>;
let home: string;
/** Where the quick start ended (after its `cd demo`): the project the library snippet runs in. */
let project: string | undefined;

before(async () => {
  ({ tarball } = await pack(path.join(dir, 'pack')));
  const user = await newUser(dir);
  home = user.home;
  env = Object.fromEntries(Object.entries(user.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  fs.mkdirSync(work);
});

after(async () => {
  // Chromium keeps HOME: anything the blocks started is found by it.
  const stopped = await sweep({ pidFiles: [], markers: [['HOME', home]] });
  if (stopped.length) console.log(`# stopped after the run: ${stopped.join(', ')}`);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The block with the line `from` (exactly that line) installing the packed tarball instead. */
function installingTarball(block: DocBlock, from: string): DocBlock {
  const lines = block.text.split('\n');
  assert.equal(lines.filter((line) => line.trim() === from).length, 1, `README.md:${block.line}: the block has the line \`${from}\``);
  return { ...block, text: lines.map((line) => (line.trim() === from ? line.replace(from, from.replace(/imprint$/, `'${tarball}'`)) : line)).join('\n') };
}

/** Runs README blocks as one bash script; answers the folder it ended in. */
async function runBlocks(blocks: DocBlock[], cwd: string): Promise<string> {
  const pwdFile = path.join(dir, 'pwd');
  const script = scriptOf([...blocks, { line: 0, text: `pwd > '${pwdFile}'` }], 'README.md');
  const result = await runScript(script, { cwd, env, timeoutMs: RUN_DEADLINE_MS });
  assert.ok(!result.timedOut, `the blocks did not finish within ${RUN_DEADLINE_MS / 1000} s:\n${result.output}`);
  assert.equal(result.code, 0, result.output);
  return fs.readFileSync(pwdFile, 'utf8').trim();
}

async function assertPdfSays(file: string, texts: string[]) {
  assert.ok(fs.existsSync(file), `${file} was written`);
  const info = await run('pdfinfo', [file], { cwd: dir, env: process.env, timeoutMs: 30_000 });
  assert.match(info.stdout, /^Pages:\s+[1-9]/m, info.describe());
  const text = await pdfText(file);
  for (const expected of texts) assert.ok(text.stdout.includes(expected), `the PDF says "${expected}":\n${text.stdout}`);
}

test("README.md's npm quick start runs as written, from the packed tarball, in an empty HOME", { timeout: RUN_DEADLINE_MS + 60_000 }, async () => {
  const blocks = markedBlocks(README, 'npm-quickstart');
  assert.equal(blocks.length, 1, 'one block is marked <!-- npm-quickstart -->');
  const [block] = blocks;
  project = await runBlocks([installingTarball(block, 'npm i -g imprint')], work);

  // The block's last render: its props file and its output, as the README wrote them.
  const render = block.text.trim().split('\n').at(-1)!;
  const props = /--props (\S+)/.exec(render)?.[1];
  const output = /-o (\S+\.pdf)/.exec(render)?.[1];
  assert.ok(props && output, `the block ends with a render with --props and -o: ${render}`);
  const given = JSON.parse(fs.readFileSync(path.join(project, props), 'utf8')) as { number: string; customer: { name: string } };
  await assertPdfSays(path.join(project, output), [given.number, given.customer.name]);
});

test("README.md's library snippet runs as written, as render.mjs in the quick start's project", { timeout: RUN_DEADLINE_MS + 60_000 }, async () => {
  assert.ok(project, 'the quick start made the project');
  const [snippet, ...more] = markedBlocks(README, 'render.mjs', ['js']);
  assert.ok(snippet && more.length === 0, 'one block is marked <!-- render.mjs -->');
  fs.writeFileSync(path.join(project, 'render.mjs'), `${snippet.text}\n`);
  const runs = markedBlocks(README, 'library');
  assert.equal(runs.length, 1, 'one block is marked <!-- library -->');
  await runBlocks([installingTarball(runs[0], 'npm i imprint')], project);

  const output = /writeFile\('([^']+\.pdf)'/.exec(snippet.text)?.[1];
  const number = /number: '([^']+)'/.exec(snippet.text)?.[1];
  const customer = /customer: \{ name: '([^']+)'/.exec(snippet.text)?.[1];
  assert.ok(output && number && customer, 'the snippet writes a PDF of an invoice with a number and a customer');
  await assertPdfSays(path.join(project, output), [number, customer]);
});
