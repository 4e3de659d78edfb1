/**
 * Template versions through the real CLI (api.md Part E), in both modes: embedded (the local
 * data folder) and remote (`imprint serve` as a child process, with a real key). Pinning a
 * version (`id@n`, `--version n`, batches), listing versions, rolling back; each PDF is read
 * back with pdftotext to see which version printed it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliWithDataDir, runCli, tempDir, type CliOptions } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

/** A project whose one template says which version it is. */
function stampProject() {
  const dir = tempDir('imprint-versions-');
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"stamp","private":true}\n');
  const file = path.join(dir, 'Stamp.tsx');
  const write = (label: string) =>
    fs.writeFileSync(file, `export default function Stamp(props: { who: string }) { return <h1>Stamp ${label} for {props.who}</h1>; }\nStamp.documentId = 'stamp';\n`);
  return { dir, file, write };
}

interface Mode {
  name: string;
  run(args: string[], options?: CliOptions): ReturnType<typeof runCli>;
  /** Who a version published in this mode is recorded as. */
  publisher(): string | null;
}

const embeddedCli = cliWithDataDir();
const serviceData = tempDir('imprint-serve-');
const operator = cliWithDataDir(serviceData);
const userEnv: Record<string, string | undefined> = { IMPRINT_DATA_DIR: tempDir('imprint-user-') };
let serve: ServeProcess | undefined;
let keyId = '';

const modes: Mode[] = [
  { name: 'embedded', run: (args, options = {}) => embeddedCli.run(['--embedded', ...args], options), publisher: () => null },
  { name: 'remote', run: (args, options = {}) => runCli(args, { ...options, env: { ...userEnv, ...options.env } }), publisher: () => keyId },
];

before(async () => {
  assert.equal((await operator.run(['team', 'create', 'acme'])).code, 0);
  const created = await operator.run(['key', 'create', '--team', 'acme']);
  assert.equal(created.code, 0, created.describe());
  const keys = JSON.parse((await operator.run(['key', 'list', '--team', 'acme', '--json'])).stdout.toString());
  keyId = keys[0].id;
  serve = await startServeProcess({ dataDir: serviceData });
  Object.assign(userEnv, { IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: created.stdout.toString().trim() });
});

after(async () => {
  const code = await serve?.stop();
  assert.equal(code, 0, `serve stops cleanly:\n${serve?.output()}`);
});

for (const mode of modes) {
  describe(`versions, ${mode.name} mode`, () => {
    const project = stampProject();
    const out = tempDir('imprint-versions-out-');
    const props = path.join(project.dir, 'props.json');
    fs.writeFileSync(props, '{"who":"Ada"}');

    async function renderText(args: string[]): Promise<string> {
      const file = path.join(out, `r${Math.random().toString(36).slice(2)}.pdf`);
      const result = await mode.run(['render', ...args, '--props', props, '-o', file]);
      assert.equal(result.code, 0, result.describe());
      return pdfText(file).replace(/\s+/g, ' ').trim();
    }

    before(async () => {
      for (const label of ['one', 'two', 'three']) {
        project.write(label);
        const published = await mode.run(['publish', project.file]);
        assert.equal(published.code, 0, published.describe());
      }
    });

    test('id@n and --version n render that version; no version renders the latest', async () => {
      assert.match(await renderText(['stamp@1']), /Stamp one for Ada/);
      assert.match(await renderText(['stamp', '--version', '2']), /Stamp two for Ada/);
      assert.match(await renderText(['stamp', '--version=1']), /Stamp one for Ada/);
      assert.match(await renderText(['stamp']), /Stamp three for Ada/);
    });

    test('an unknown version fails and lists the versions there are; a malformed one is a usage error', async () => {
      const unknown = await mode.run(['render', 'stamp@9', '--props', props, '-o', path.join(out, 'x.pdf')]);
      assert.equal(unknown.code, 1, unknown.describe());
      assert.match(unknown.stderr, /no version 9; its versions are 1-3/);
      const malformed = await mode.run(['render', 'stamp', '--version', 'latest', '--props', props]);
      assert.equal(malformed.code, 2, malformed.describe());
      assert.match(malformed.stderr, /Invalid version "latest"/);
      const twice = await mode.run(['render', 'stamp@1', '--version', '2', '--props', props]);
      assert.equal(twice.code, 2, twice.describe());
    });

    test('a batch renders every row with the pinned version', async () => {
      const rows = path.join(project.dir, 'rows.jsonl');
      fs.writeFileSync(rows, '{"who":"Ada"}\n{"who":"Grace"}\n');
      const dir = path.join(out, 'batch');
      const result = await mode.run(['render', 'stamp@2', '--batch', rows, '--out-dir', dir]);
      assert.equal(result.code, 0, result.describe());
      const files = fs.readdirSync(dir).sort();
      assert.equal(files.length, 2, files.join(', '));
      const texts = files.map((file) => pdfText(path.join(dir, file)));
      assert.ok(texts.every((text) => /Stamp two/.test(text)), texts.join('\n---\n'));
      assert.ok(texts.some((text) => /Grace/.test(text)));
    });

    test('versions lists number, time, size, hash and publisher; rollback republishes a version as the latest', async () => {
      const listed = await mode.run(['versions', 'stamp', '--json']);
      assert.equal(listed.code, 0, listed.describe());
      const before = JSON.parse(listed.stdout.toString());
      assert.deepEqual(before.map((v: { version: number }) => v.version), [1, 2, 3]);
      for (const v of before) {
        assert.ok(!Number.isNaN(Date.parse(v.publishedAt)));
        assert.ok(v.bytes > 1000, `bytes ${v.bytes}`);
        assert.match(v.artifactSha256, /^[0-9a-f]{64}$/);
        assert.equal(v.publishedBy, mode.publisher());
        assert.equal(v.rollbackOf, null);
      }
      assert.notEqual(before[0].artifactSha256, before[2].artifactSha256);

      const table = await mode.run(['versions', 'stamp']);
      assert.match(table.stdout.toString(), new RegExp(`^1\\t\\S+\\t\\d+\\t${before[0].artifactSha256.slice(0, 12)}\\t${mode.publisher() ?? 'local'}\\t`, 'm'));

      const rolled = await mode.run(['rollback', 'stamp', '1']);
      assert.equal(rolled.code, 0, rolled.describe());
      assert.match(rolled.stdout.toString(), /Published stamp version 4 \(the content of version 1\)/);
      assert.match(await renderText(['stamp']), /Stamp one for Ada/);
      const after = JSON.parse((await mode.run(['versions', 'stamp', '--json'])).stdout.toString());
      assert.equal(after.length, 4);
      assert.equal(after[3].rollbackOf, 1);
      assert.equal(after[3].artifactSha256, before[0].artifactSha256);
      assert.equal(after[3].publishedBy, mode.publisher());
      assert.deepEqual(after.slice(0, 3), before, 'the history is not rewritten');

      const missing = await mode.run(['rollback', 'stamp', '42']);
      assert.equal(missing.code, 1, missing.describe());
      assert.match(missing.stderr, /no version 42; its versions are 1-4/);
      const unknownTemplate = await mode.run(['versions', 'nothing-here']);
      assert.equal(unknownTemplate.code, 1, unknownTemplate.describe());
      assert.match(unknownTemplate.stderr, /No template "nothing-here"/);
    });
  });
}
