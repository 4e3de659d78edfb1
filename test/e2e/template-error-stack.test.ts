/**
 * A template that throws, and a library call that fails, as their authors meet them: every
 * frame of the template's stack and of React's component stack points at the TSX file (through
 * the artifact's source map), none at the minified artifact.js, and nothing prints a line of
 * minified bundle: not the CLI, and not Node itself for an error the library throws that nobody
 * catches (Node prints the source line of the throw site, kilobytes long in a minified dist/).
 *
 * The template lives in a project laid out as users lay theirs out (package.json at its root,
 * templates in a folder), so file names read relative to the project: bad/Throws.tsx.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BIN, cliWithDataDir, runCli, tempDir } from '../helpers/cli.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { run } from './package-kit.js';

/** Line numbers below are the template's own: each assertion names the line it expects. */
const THROWS_TSX = `function describeRow(n: number): string {
  if (n > 1) throw new Error(\`row \${n} cannot be described\`);
  return \`row \${n}\`;
}

function Row({ n }: { n: number }) {
  const text = describeRow(n);
  return <p>{text}</p>;
}

export default function Throws() {
  return (
    <section>
      <Row n={1} />
      <Row n={2} />
    </section>
  );
}

Throws.PreviewProps = {};
`;

const COMMAND_MS = 120_000;
/** What a terminal shows on one line; a line of minified bundle is kilobytes. */
const LONGEST_LINE = 300;

function assertNoLongLine(output: string, what: string): void {
  const longest = output.split('\n').reduce((a, b) => (b.length > a.length ? b : a), '');
  assert.ok(longest.length <= LONGEST_LINE, `${what}: a line of ${longest.length} characters:\n${longest.slice(0, 400)}…`);
}

/** Both stacks of the template, each frame at its TSX line, and nothing of the minified artifact. */
function assertTemplateStacks(output: string, what: string): void {
  assert.doesNotMatch(output, /artifact\.js/, `${what}: a frame of the minified artifact:\n${output}`);
  // The script stack: the throw, then its caller, both in the template; React's frames dropped.
  assert.match(output, /at describeRow \(bad\/Throws\.tsx:2:\d+\)/, `${what}:\n${output}`);
  assert.match(output, /at Row \(bad\/Throws\.tsx:7:\d+\)/, `${what}:\n${output}`);
  // The component stack: the failing component, the element around it, the template's root.
  assert.match(output, /at Row \(bad\/Throws\.tsx:6:\d+\)\n\s*at section\n\s*at Throws \(bad\/Throws\.tsx:11:\d+\)/, `${what}:\n${output}`);
  // Imprint's page runtime and React's internals are not the author's: none of their frames.
  assert.doesNotMatch(output, /runtime[\\/]|node_modules|imprint-entry|<anonymous>/, `${what}:\n${output}`);
  assertNoLongLine(output, what);
}

describe('a template that throws points at its TSX lines', () => {
  const cli = cliWithDataDir();
  const project = tempDir('imprint-throws-');

  before(() => {
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'throwing-templates', private: true }));
    fs.mkdirSync(path.join(project, 'bad'));
    fs.writeFileSync(path.join(project, 'bad', 'Throws.tsx'), THROWS_TSX);
  });

  test('imprint render: the message, both stacks at TSX lines, the error code, no output', { timeout: COMMAND_MS }, async () => {
    const out = path.join(project, 'never.pdf');
    const result = await cli.run(['render', 'bad/Throws.tsx', '-o', out], { cwd: project, timeoutMs: COMMAND_MS });
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /^✖ The template Throws\.tsx threw while rendering: row 2 cannot be described \(at bad\/Throws\.tsx:2:\d+\)/, result.describe());
    assert.match(result.stderr, /RENDER_FAILED/, result.describe());
    assertTemplateStacks(result.stderr, 'imprint render');
    assert.equal(fs.existsSync(out), false);
  });

  test('imprint check: the same stacks in its report', { timeout: COMMAND_MS }, async () => {
    const result = await cli.run(['check', 'bad/Throws.tsx'], { cwd: project, timeoutMs: COMMAND_MS });
    assert.equal(result.code, 1, result.describe());
    assertTemplateStacks(`${result.stdout.toString()}${result.stderr}`, 'imprint check');
  });
});

describe("the served API's answer for a published template that throws", () => {
  const operator = cliWithDataDir();
  const project = tempDir('imprint-throws-served-');
  let serve: ServeProcess | undefined;
  let key = '';

  before(async () => {
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'throwing-templates', private: true }));
    fs.mkdirSync(path.join(project, 'bad'));
    fs.writeFileSync(path.join(project, 'bad', 'Throws.tsx'), THROWS_TSX);
    assert.equal((await operator.run(['team', 'create', 'acme'])).code, 0);
    const created = await operator.run(['key', 'create', '--team', 'acme']);
    assert.equal(created.code, 0, created.describe());
    key = created.stdout.toString().trim();
    serve = await startServeProcess({ dataDir: operator.dataDir });
  });

  after(async () => {
    assert.equal(await serve?.stop(), 0, serve?.output());
  });

  test('RENDER_FAILED whose message names the TSX line, and nothing of the artifact', { timeout: COMMAND_MS }, async () => {
    const env = { IMPRINT_CONFIG_DIR: tempDir('imprint-config-') };
    const published = await runCli(['publish', 'bad/Throws.tsx', '--id', 'throws', '--api-url', serve!.url, '--api-key', key], { cwd: project, env, timeoutMs: COMMAND_MS });
    assert.equal(published.code, 0, published.describe());
    const response = await fetch(new URL('/api/documents/throws', serve!.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ props: {} }),
      signal: AbortSignal.timeout(COMMAND_MS),
    });
    const body = (await response.json()) as { code: string; error: string };
    assert.equal(response.status, 500, JSON.stringify(body));
    assert.equal(body.code, 'RENDER_FAILED');
    assert.match(body.error, /threw while rendering: row 2 cannot be described \(at bad\/Throws\.tsx:2:\d+\)/);
    assert.doesNotMatch(body.error, /artifact\.js/);
    assertNoLongLine(body.error, 'the error body');
  });
});

/**
 * A Node script of the user's importing `imprint` by its name, failing with nothing to catch
 * the error: what Node prints for it. The package it imports is the one the CLI under test
 * runs (the folder above BIN), linked into the script's node_modules as an install puts it.
 */
describe('an error the library throws that nobody catches', () => {
  const project = tempDir('imprint-lib-errors-');
  const dataDir = tempDir('imprint-lib-data-');

  before(() => {
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'library-user', private: true, type: 'module' }));
    fs.mkdirSync(path.join(project, 'node_modules'));
    fs.symlinkSync(path.resolve(path.dirname(BIN), '..'), path.join(project, 'node_modules', 'imprint'), 'dir');
    fs.mkdirSync(path.join(project, 'bad'));
    fs.writeFileSync(path.join(project, 'bad', 'Throws.tsx'), THROWS_TSX);
  });

  const script = async (name: string, lines: string[]) => {
    fs.writeFileSync(path.join(project, name), [`import { createImprint } from 'imprint';`, ...lines, ''].join('\n'));
    const env = { ...process.env, IMPRINT_DATA_DIR: dataDir, IMPRINT_API_URL: undefined, IMPRINT_API_KEY: undefined, FORCE_COLOR: '0' };
    return run(process.execPath, [name], { cwd: project, env, timeoutMs: COMMAND_MS });
  };

  test('a template that throws: RENDER_FAILED, both stacks at TSX lines, Node shows the script line', { timeout: COMMAND_MS }, async () => {
    const result = await script('render-throws.mjs', [
      `const imprint = createImprint({ dataDir: process.env.IMPRINT_DATA_DIR });`,
      `await imprint.render('bad/Throws.tsx', {});`,
    ]);
    assert.equal(result.code, 1, result.describe());
    // Node's first lines for an uncaught error: the throw site's file and source line, here the user's own.
    assert.match(result.stderr, /^file:\/\/.*render-throws\.mjs:3\nawait imprint\.render\('bad\/Throws\.tsx', \{\}\);\n/, result.describe());
    assert.match(result.stderr, /ImprintError: The template Throws\.tsx threw while rendering: row 2 cannot be described \(at bad\/Throws\.tsx:2:\d+\)/);
    assert.match(result.stderr, /code: 'RENDER_FAILED'/);
    // Node shows `details` as a string literal split at its line breaks ('...\n' +): read back as lines.
    assertTemplateStacks(result.stderr.replace(/\\n' \+\n\s*'/g, '\n'), 'library render');
  });

  test('a bad option: USAGE, and no line of the bundle', { timeout: COMMAND_MS }, async () => {
    const result = await script('bad-size.mjs', [`const imprint = createImprint();`, `await imprint.render('bad/Throws.tsx', {}, { size: 'B77' });`]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /^file:\/\/.*bad-size\.mjs:3\nawait imprint\.render/, result.describe());
    assert.match(result.stderr, /ImprintError: Invalid size "B77"/);
    assert.match(result.stderr, /code: 'USAGE'/);
    assertNoLongLine(result.stderr, 'bad size');
  });

  test('thrown synchronously outside any module evaluation (a timer): no line of the bundle', { timeout: COMMAND_MS }, async () => {
    const result = await script('timer.mjs', [`setTimeout(() => createImprint({ apiKey: 'imp_x' }), 1);`]);
    assert.equal(result.code, 1, result.describe());
    assert.match(result.stderr, /ImprintError: createImprint: apiKey is given without apiUrl/);
    assert.match(result.stderr, /code: 'USAGE'/);
    assert.match(result.stderr, /at Timeout\._onTimeout \(file:\/\/.*timer\.mjs:2:\d+\)/, result.describe());
    assert.doesNotMatch(result.stderr, /dist[\\/]/, result.describe());
    assertNoLongLine(result.stderr, 'timer');
  });
});
