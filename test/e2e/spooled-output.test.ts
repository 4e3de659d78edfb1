/**
 * Big prints spooled to a file (issue 40: core/spool/) through the installed CLI, on every way a
 * PDF leaves it: a file and stdout, in its own process and through the warm renderer (the nail
 * path writing the file itself, generate's result crossing the socket as the spool's path),
 * `--format base64` and `json`, `--batch` rows, a stamp and encryption (steps that read the spool
 * whole), a template whose page numbers take two prints. The threshold is lowered
 * (IMPRINT_SPOOL_FROM=64KiB) so a 40-page statement spools (about 520 KiB with its picture; the
 * template's, with ledger lines and a table of contents, about 290); each output is compared
 * byte for byte (--deterministic) with the same command's output without spooling
 * (IMPRINT_SPOOL_FROM=1GiB) and read back with pdfinfo and pdftotext.
 *
 * Every run has a TMPDIR of its own, and that it spooled is seen from outside, not taken from
 * the code's word: the TMPDIR is watched (helpers/spool-watch.ts) and each spooled print makes
 * an `imprint-spool-XXXXXX` folder there. A run that should spool and made none fails, and the
 * unspooled references must make none, which shows the watch tells the two apart. (A TMPDIR the
 * spool cannot use would not: Chromium's profile lives there too, so such a TMPDIR fails every
 * render, spooled or not, naming the folder: core/temp-folder.ts, unit-tested with the spool in
 * test/unit/core/spool/.) After every run, successful or not, no spool folder is left in its
 * TMPDIR.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { cliWithDataDir, INPUTS, tempDir, type CliOptions, type CliResult } from '../helpers/cli.js';
import { assertWholeStatement, bigStatementHtml } from '../helpers/big-statement.js';
import { pdfInfo, pdfText } from '../helpers/pdf.js';
import { pdfObjects } from '../helpers/qpdf.js';
import { isAlive, waitForPidExit } from '../helpers/pid-exit.js';
import { watchSpools } from '../helpers/spool-watch.js';

/** Each child's deadline: a 40-page render takes seconds; a busy 2-core machine, several times that. */
const CHILD_MS = 90_000;
/** A test's: its children one after another (the warm renderer's test runs seven). */
const TEST_MS = 8 * CHILD_MS;
/** The file's, inside the runner's per-file deadline (20 minutes, scripts/run-tests.js). */
const FILE_MS = 18 * 60_000;
const SPOOLED = '64KiB';
const UNSPOOLED = '1GiB';
const SHEETS = 40;
/** Sheets as tall on screen as in print, so the print is a stream; a picture for bytes past the threshold. */
const SHAPE = { tallSheets: true, pictures: 1 };
/** The template's PreviewProps (test/fixtures/spool/templates/Statement.tsx), which its reference render uses. */
const TEMPLATE_PROPS = { holder: 'Ada Lovelace', sheets: SHEETS, lines: 30 };

const root = tempDir('imprint-spooled-');
const cli = cliWithDataDir(path.join(root, 'data'));
const html = path.join(root, 'statement.html');
fs.writeFileSync(html, bigStatementHtml(SHEETS, SHAPE));
/** A template project as users lay one out (package.json, templates/), its props its PreviewProps: 40 sheets after a table of contents. */
const project = path.join(INPUTS, 'test', 'fixtures', 'spool');
const TEMPLATE = './templates/Statement.tsx';
/** The warm renderer, for the tests that turn it on: a runtime folder of this file's own, stopped at the end. */
const RENDERER_ENV = { IMPRINT_RENDERER: 'on', IMPRINT_RUNTIME_DIR: path.join(root, 'run'), IMPRINT_RENDERER_IDLE: '2m' };
const rendererPids = new Set<number>();

after(async () => {
  await cli.run(['renderer', 'stop', '--all'], { env: RENDERER_ENV, timeoutMs: CHILD_MS });
  for (const pid of rendererPids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await Promise.all([...rendererPids].map((pid) => waitForPidExit(pid)));
  fs.rmSync(root, { recursive: true, force: true });
});

let tmpCount = 0;
/** A TMPDIR of its own for a run (or several that share one renderer). */
function freshTmp(): string {
  const dir = path.join(root, `tmp-${++tmpCount}`);
  fs.mkdirSync(dir);
  return dir;
}

interface Run {
  result: CliResult;
  /** Spool folders the run made in its TMPDIR (one per spooled print). */
  spooled: number;
}

/** `imprint ...args` with its TMPDIR watched: nothing may be left there, whatever the outcome. */
async function run(args: string[], spoolFrom: string, options: CliOptions & { tmp?: string } = {}): Promise<Run> {
  const { tmp = freshTmp(), env, ...rest } = options;
  const watched = await watchSpools(tmp, () => cli.run(args, { timeoutMs: CHILD_MS, ...rest, env: { TMPDIR: tmp, IMPRINT_SPOOL_FROM: spoolFrom, ...env } }));
  assert.deepEqual(watched.left, [], `a spool folder was left behind in TMPDIR:\n${watched.value.describe()}`);
  return { result: watched.value, spooled: watched.spooled };
}

async function succeeds(args: string[], spoolFrom: string, options: CliOptions & { tmp?: string } = {}): Promise<Run> {
  const ran = await run(args, spoolFrom, options);
  assert.equal(ran.result.code, 0, ran.result.describe());
  return ran;
}

const generate = (extra: string[]) => ['generate', '--html', html, '--deterministic', ...extra];
const render = (extra: string[]) => ['render', TEMPLATE, '--deterministic', ...extra];
const inProject = { cwd: project };
const outFile = (name: string) => path.join(root, name);

/**
 * The template's statement, whole and numbered: "the last sheet is on page N" (a <PageRef>) and
 * the table of contents' last entry name the page where sheet 40 is, which is the last page.
 */
function assertTemplateStatement(pdf: Buffer): void {
  const pages = pdfInfo(pdf).pages;
  assert.ok(pages > SHEETS, `${pages} pages: a table of contents, then ${SHEETS} sheets`);
  const contents = pdfText(pdf, 1);
  assert.match(contents, new RegExp(`The last sheet is on page ${pages}\\.`), contents);
  assert.match(contents, new RegExp(`Statement sheet ${SHEETS}\\s+${pages}\\s*$`, 'm'), contents);
  const last = pdfText(pdf, pages);
  assert.match(last, new RegExp(`Statement sheet ${SHEETS}\\b`));
  assert.match(last, new RegExp(`Page ${pages} of ${pages}\\b`));
}

/** The running renderer for a call with `env`'s settings: its served and nailed counts. */
async function rendererStatus(env: Record<string, string>): Promise<{ pid: number; served: number; nailed: number }> {
  const result = await cli.run(['renderer', 'status', '--json'], { env: { ...RENDERER_ENV, ...env }, timeoutMs: CHILD_MS });
  assert.equal(result.code, 0, result.describe());
  const status = JSON.parse(result.stdout.toString());
  assert.equal(status.running, true, result.describe());
  rendererPids.add(status.pid);
  return status;
}

describe('spooled output through the installed CLI (IMPRINT_SPOOL_FROM)', { timeout: FILE_MS }, () => {
  /** The same commands' output without spooling: what every spooled output must equal. */
  let statement: Buffer;
  let template: Buffer;

  before(async () => {
    const fromHtml = await succeeds(generate(['-o', outFile('statement-ref.pdf')]), UNSPOOLED);
    assert.equal(fromHtml.spooled, 0, 'under the threshold nothing spools: the watch tells the two apart');
    statement = fs.readFileSync(outFile('statement-ref.pdf'));
    assertWholeStatement(statement, SHEETS);
    const tsx = await succeeds(render(['--no-renderer', '-o', outFile('template-ref.pdf')]), UNSPOOLED, inProject);
    assert.equal(tsx.spooled, 0);
    template = fs.readFileSync(outFile('template-ref.pdf'));
    assertTemplateStatement(template);
  });

  test('generate --html to a file and to stdout: spooled, the same bytes as unspooled', { timeout: TEST_MS }, async () => {
    const file = outFile('generate.pdf');
    const toFile = await succeeds(generate(['-o', file]), SPOOLED);
    assert.equal(toFile.spooled, 1, toFile.result.describe());
    const written = fs.readFileSync(file);
    assertWholeStatement(written, SHEETS);
    assert.ok(written.equals(statement), 'the spooled file has the unspooled bytes');
    assert.deepEqual(fs.readdirSync(root).filter((name) => name.endsWith('.tmp')), [], 'no temp file left beside it');

    const toStdout = await succeeds(generate(['-o', '-']), SPOOLED);
    assert.equal(toStdout.spooled, 1);
    assert.ok(toStdout.result.stdout.equals(statement), `stdout: ${toStdout.result.stdout.length} bytes, unspooled ${statement.length}`);
  });

  test('--format base64 decodes to the same bytes; --format json names a file:// copy with them', { timeout: TEST_MS }, async () => {
    const base64 = await succeeds(generate(['--format', 'base64', '-o', '-']), SPOOLED);
    assert.equal(base64.spooled, 1);
    assert.ok(Buffer.from(JSON.parse(base64.result.stdout.toString()).data, 'base64').equals(statement));

    const json = await succeeds(generate(['--format', 'json', '-o', '-']), SPOOLED);
    assert.equal(json.spooled, 1);
    const { url } = JSON.parse(json.result.stdout.toString());
    assert.match(url, /^file:\/\//);
    assert.ok(fs.readFileSync(fileURLToPath(url)).equals(statement), 'the kept copy has the unspooled bytes');
  });

  test('render ./templates/Statement.tsx in its own process: each page-number pass spooled, the same bytes', { timeout: TEST_MS }, async () => {
    const file = outFile('template.pdf');
    const rendered = await succeeds(render(['--no-renderer', '-o', file]), SPOOLED, inProject);
    // The first print finds the pages, the second prints them: two spools, the first removed once the second replaced it.
    assert.equal(rendered.spooled, 2, rendered.result.describe());
    const written = fs.readFileSync(file);
    assertTemplateStatement(written);
    assert.ok(written.equals(template));
  });

  test('the warm renderer: its spool handed over the socket, written by the renderer, read whole for stdout; one threshold a renderer', { timeout: TEST_MS }, async () => {
    const tmp = freshTmp();
    const warm = { ...inProject, tmp, env: RENDERER_ENV };
    // A renderer started unspooled first, in the same TMPDIR: the spooled calls below must not be served by it.
    const unspooled = await succeeds(render(['-o', outFile('warm-ref.pdf')]), UNSPOOLED, warm);
    assert.equal(unspooled.spooled, 0);
    assert.ok(fs.readFileSync(outFile('warm-ref.pdf')).equals(template));

    // The call that starts a renderer is sent by the CLI (the result crosses the socket as the
    // spool's path, the CLI copies it); the next ones are the nail path's, taken whole by the
    // renderer, which writes the file itself, or reads the spool whole for the client's stdout.
    for (const name of ['warm-started.pdf', 'warm-nailed.pdf']) {
      const toFile = await succeeds(render(['-o', outFile(name)]), SPOOLED, warm);
      assert.equal(toFile.spooled, 2, toFile.result.describe());
      assert.ok(fs.readFileSync(outFile(name)).equals(template), name);
    }
    const toStdout = await succeeds(render(['-o', '-']), SPOOLED, warm);
    assert.equal(toStdout.spooled, 2);
    assert.ok(toStdout.result.stdout.equals(template));

    const generated = outFile('warm-generate.pdf');
    const generateToFile = await succeeds(generate(['-o', generated]), SPOOLED, warm);
    assert.equal(generateToFile.spooled, 1);
    assert.ok(fs.readFileSync(generated).equals(statement));
    const generateToStdout = await succeeds(generate(['-o', '-']), SPOOLED, warm);
    assert.equal(generateToStdout.spooled, 1);
    assert.ok(generateToStdout.result.stdout.equals(statement));

    // Served by the renderers, not in the CLI's own process: the spooled renderer took its five
    // calls (two renders whole, by the nail path), the unspooled one only the call that started it.
    const spooledRenderer = await rendererStatus({ TMPDIR: tmp, IMPRINT_SPOOL_FROM: SPOOLED });
    const unspooledRenderer = await rendererStatus({ TMPDIR: tmp, IMPRINT_SPOOL_FROM: UNSPOOLED });
    assert.notEqual(spooledRenderer.pid, unspooledRenderer.pid);
    assert.deepEqual([spooledRenderer.served, spooledRenderer.nailed], [5, 2]);
    assert.deepEqual([unspooledRenderer.served, unspooledRenderer.nailed], [1, 0]);
    const stopped = await cli.run(['renderer', 'stop', '--all'], { env: RENDERER_ENV, timeoutMs: CHILD_MS });
    assert.equal(stopped.code, 0, stopped.describe());
    await Promise.all([spooledRenderer.pid, unspooledRenderer.pid].map((pid) => waitForPidExit(pid)));
    assert.deepEqual(fs.readdirSync(tmp).filter((name) => name.startsWith('imprint-')), [], 'the renderers left nothing in their TMPDIR');
  });

  test('--batch: each row spooled and copied into place; a row whose file is a folder fails OUTPUT_FAILED, its spool removed', { timeout: TEST_MS }, async () => {
    const outDir = outFile('batch');
    // Row 3's file name (3.pdf) is taken by a folder: its print spools, then the copy into place fails.
    fs.mkdirSync(path.join(outDir, '3.pdf'), { recursive: true });
    const rows = outFile('rows.jsonl');
    fs.writeFileSync(rows, `${Array.from({ length: 3 }, () => JSON.stringify(TEMPLATE_PROPS)).join('\n')}\n`);
    const batch = await run(render(['--batch', rows, '--out-dir', outDir]), SPOOLED, inProject);
    assert.equal(batch.result.code, 1, batch.result.describe());
    assert.match(batch.result.stderr, /row 3: Cannot write .*3\.pdf/, batch.result.describe());
    assert.equal(batch.spooled, 6, 'two prints a row, each spooled');
    assert.deepEqual(fs.readdirSync(outDir).sort(), ['1.pdf', '2.pdf', '3.pdf']);
    for (const name of ['1.pdf', '2.pdf']) assert.ok(fs.readFileSync(path.join(outDir, name)).equals(template), name);
  });

  test('--stamp DRAFT and --encrypt read the spool whole: the whole document, stamped, opened with its password', { timeout: TEST_MS }, async () => {
    const file = outFile('stamped-encrypted.pdf');
    const password = 'spool-user-pw';
    const stamped = await succeeds(generate(['--stamp', 'DRAFT', '--encrypt', '-o', file]), SPOOLED, { env: { IMPRINT_USER_PASSWORD: password, IMPRINT_OWNER_PASSWORD: 'spool-owner-pw' } });
    assert.equal(stamped.spooled, 1);
    const pdf = fs.readFileSync(file);
    assert.ok(pdfObjects(pdf, password).trailer['/Encrypt'], 'encrypted');
    assertWholeStatement(pdf, SHEETS, password);
    for (const page of [1, SHEETS]) assert.match(pdfText(pdf, page, password), /\bDRAFT\b/, `page ${page}`);
  });

  test('failures leave no spool: a deadline too short (RENDER_TIMEOUT), an output folder that does not exist (OUTPUT_FAILED)', { timeout: TEST_MS }, async () => {
    // A hundred times the statement, tagged, so 1 s is too short on any machine (ten times, or
    // untagged, as the default is past 300 pages, printed in under a second here). Wherever the
    // deadline falls (before the print, while it spools, during the finishing), nothing may stay.
    const longer = outFile('longer.html');
    fs.writeFileSync(longer, bigStatementHtml(100 * SHEETS, { tallSheets: true }));
    const late = await run(['generate', '--html', longer, '--tagged', '--timeout', '1s', '-o', outFile('late.pdf')], SPOOLED);
    assert.equal(late.result.code, 1, late.result.describe());
    assert.match(late.result.stderr, /\[RENDER_TIMEOUT\]/);
    assert.equal(fs.existsSync(outFile('late.pdf')), false);
    // Refused before anything renders (the batch's row above fails after its spool).
    const nowhere = outFile(path.join('no-such-folder', 'out.pdf'));
    const refused = await run(generate(['-o', nowhere]), SPOOLED);
    assert.equal(refused.result.code, 1, refused.result.describe());
    assert.match(refused.result.stderr, /Cannot write .*no-such-folder.*\[OUTPUT_FAILED\]/);
  });

  test('a TMPDIR that is a file: every render fails naming it and what to do, not as a bug', { timeout: TEST_MS }, async () => {
    const notAFolder = outFile('not-a-folder');
    fs.writeFileSync(notAFolder, '');
    const result = await cli.run(generate(['-o', outFile('nowhere.pdf')]), { env: { TMPDIR: notAFolder, IMPRINT_SPOOL_FROM: SPOOLED }, timeoutMs: CHILD_MS });
    assert.equal(result.code, 1, result.describe());
    assert.ok(result.stderr.includes(`no folder could be made in the temporary folder ${notAFolder} (ENOTDIR`), result.describe());
    assert.match(result.stderr, /Set TMPDIR to a writable folder\. \[INTERNAL\]/);
    assert.doesNotMatch(result.stderr, /Unexpected error|This is a bug/);
  });

  test('IMPRINT_SPOOL_FROM=banana is a usage error naming the variable, in the CLI\'s process and on the renderer\'s path', { timeout: TEST_MS }, async () => {
    for (const [args, options] of [
      [generate(['-o', outFile('banana.pdf')]), {}],
      [render(['-o', outFile('banana.pdf')]), { ...inProject, env: RENDERER_ENV }],
    ] as const) {
      const banana = await run([...args], 'banana', options);
      assert.equal(banana.result.code, 2, banana.result.describe());
      assert.match(banana.result.stderr, /IMPRINT_SPOOL_FROM.*banana.*100MiB.*\[USAGE\]/, banana.result.describe());
      assert.equal(fs.existsSync(outFile('banana.pdf')), false);
    }
  });
});
