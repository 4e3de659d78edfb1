/**
 * A 2,000-page document through the installed CLI, in its own process (issue 40): raw HTML of
 * 2,000 sheets with "Page N of M" in every page's margin (helpers/big-statement.ts, shared with
 * the service's paths in contract/big-document-api.test.ts), printed to a file with a render
 * deadline long enough for it (`--timeout`; the default, 30 s, is for ordinary documents). The PDF is streamed from Chromium (core/render/print-pdf.ts), so the file must
 * still carry the whole document: its page count, the text of the first and the last page
 * (pdftotext -f/-l), the footers running 1..2000.
 *
 * A long test (a minute or more of Chromium on a busy machine): one render only, its child
 * with a deadline, the test with one a minute longer, inside the runner's per-file deadline.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { runCli, tempDir } from '../helpers/cli.js';
import { assertWholeStatement, bigStatementHtml } from '../helpers/big-statement.js';

const PAGES = 2000;
const CHILD_DEADLINE_MS = 12 * 60_000;
const root = tempDir('imprint-big-document-');
after(() => fs.rmSync(root, { recursive: true, force: true }));

const html = path.join(root, 'statement.html');
fs.writeFileSync(html, bigStatementHtml(PAGES));

const run = (args: string[]) => runCli(['generate', '--html', html, '--timeout', '10m', ...args], { cwd: root, timeoutMs: CHILD_DEADLINE_MS, env: { IMPRINT_DATA_DIR: path.join(root, 'data') } });

test(`${PAGES} pages to a file: the whole document, first and last page`, { timeout: CHILD_DEADLINE_MS + 60_000 }, async () => {
  const out = path.join(root, 'statement.pdf');
  const result = await run(['-o', out]);
  assert.equal(result.code, 0, result.describe());
  assertWholeStatement(fs.readFileSync(out), PAGES);
  assert.deepEqual(fs.readdirSync(root).filter((name) => name.endsWith('.tmp')), [], 'no temp file left beside it');
});
