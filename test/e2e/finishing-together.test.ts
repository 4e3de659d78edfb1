/**
 * The finishing steps of issues 38 and 39 meeting each other, as a user combines them on one
 * template (installed CLI, real Chromium): a table of contents with PDF/UA; `check --a11y` on a
 * --pdfua-ready template; a stamp, a prepended part and encryption on a tagged render with
 * bookmarks; <Field>s through PDF/A-3b. One template project laid out as users lay theirs out,
 * one data folder (the CLI's template cache builds it once), a handful of CLI runs; each result
 * read back with qpdf and poppler, and `qpdf --check` clean on every one.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliWithDataDir, tempDir } from '../helpers/cli.js';
import { pdfInfo, pdfText, withFile } from '../helpers/pdf.js';
import { flatOutline, pdfLinks, pdfOutline, type OutlineEntry } from '../helpers/pdf-accessibility.js';
import { qpdfForm } from '../helpers/pdf-form.js';
import { pdfStructure } from '../helpers/pdf-structure.js';

const COMMAND_MS = 180_000;
const TITLE = 'Annual statement';
const USER_PASSWORD = 'open-sesame';

const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', jsx: 'react-jsx', strict: true, noEmit: true, skipLibCheck: true }, include: ['templates'] };

/**
 * Three chapters of two sections, each chapter on its own page, after a table of contents; a
 * "see page" reference, a link out, and a text field a reader fills in. Ready for --pdfua: a
 * title and a language in its metadata, nothing axe or the PDF-side checks object to.
 */
const TEMPLATE = `import { Document, Field, PageBreak, PageRef, TableOfContents } from 'imprint/react';

const CHAPTERS = ['Accounts', 'Payments', 'Outlook'];

export default function Statement({ holder }: { holder: string }) {
  return (
    <Document size="A5" margin="18mm 14mm">
      <TableOfContents levels={[1, 2]} title="Contents" />
      {CHAPTERS.map((chapter, c) => (
        <section key={chapter}>
          <PageBreak />
          <h1 id={\`chapter-\${c + 1}\`}>{chapter}</h1>
          {[1, 2].map((s) => (
            <div key={s}>
              <h2>{chapter} section {s}</h2>
              <p>The figures of {holder} for {chapter.toLowerCase()}, part {s}, set against the plan for the year.</p>
            </div>
          ))}
        </section>
      ))}
      <p>
        The outlook is on page <PageRef to="chapter-3" />; the terms are at <a href="https://example.com/terms">example.com/terms</a>.
      </p>
      <Field name="remarks" type="text" value="" label="Your remarks" style={{ display: 'block', width: '60mm', height: '8mm', border: '1px solid #333' }} />
    </Document>
  );
}
Statement.metadata = { title: '${TITLE}', language: 'en-GB' };
Statement.PreviewProps = { holder: 'Ada Lovelace' };
`;

const work = tempDir('imprint-finishing-');
const project = path.join(work, 'acme-docs');
const cli = cliWithDataDir();
after(() => fs.rmSync(work, { recursive: true, force: true }));

/** `imprint render templates/Statement.tsx` with `flags`, its PDF read from the file it wrote. */
async function render(name: string, flags: string[]): Promise<Buffer> {
  const file = path.join(work, `${name}.pdf`);
  const result = await cli.run(['render', 'templates/Statement.tsx', '--deterministic', '-o', file, ...flags], { cwd: project, timeoutMs: COMMAND_MS });
  assert.equal(result.code, 0, result.describe());
  return fs.readFileSync(file);
}

/** qpdf --check exits 0 (errors) and prints no warning; `password` for an encrypted file. */
function assertQpdfClean(pdf: Buffer, password?: string) {
  const output = withFile(pdf, (file) => execFileSync('qpdf', ['--check', ...(password ? [`--password=${password}`] : []), file], { timeout: 60_000 }).toString());
  assert.doesNotMatch(output, /WARNING/i, output);
  assert.match(output, /No syntax or stream encoding errors found/, output);
}

/** The table of contents as printed on page 1: each entry's text and the page number after its dot leaders. */
function tocEntries(pdf: Buffer): { text: string; page: number }[] {
  return pdfText(pdf, 1)
    .split('\n')
    .map((line) => /^\s*(\S.*?\S)\s+(\d+)\s*$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ text: match[1]!.replace(/[.\s]+$/, ''), page: Number(match[2]) }));
}

const titlesAndPages = (entries: OutlineEntry[]): unknown => entries.map((entry) => [entry.title, entry.page, titlesAndPages(entry.kids)]);

describe('finishing steps together on one tagged template (installed CLI)', { timeout: COMMAND_MS * 8 }, () => {
  let pdfua: Buffer;

  before(async () => {
    for (const [file, text] of Object.entries({
      'package.json': JSON.stringify({ name: 'acme-docs', private: true, type: 'module' }),
      'tsconfig.json': JSON.stringify(TSCONFIG),
      'templates/Statement.tsx': TEMPLATE,
    })) {
      fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      fs.writeFileSync(path.join(project, file), text);
    }
    pdfua = await render('pdfua', ['--pdfua']);
  });

  test('<TableOfContents/> with --pdfua: every link annotation has /Contents; the bookmarks open the pages the TOC prints', () => {
    const links = pdfLinks(pdfua);
    // 9 TOC entries, the PageRef's link is its number (none), the link out.
    assert.ok(links.length >= 10, JSON.stringify(links));
    for (const link of links) assert.ok(link.contents?.trim(), `no /Contents on the link to ${link.target}`);
    // A TOC entry's description is its heading, then its page: not the two run together ("Outlook4").
    assert.ok(links.some((link) => /^Outlook \d+$/.test(link.contents ?? '')), JSON.stringify(links));
    const toc = tocEntries(pdfua);
    const outline = flatOutline(pdfOutline(pdfua));
    assert.equal(toc.length, 9, pdfText(pdfua, 1));
    const outlined = new Map(outline.map((entry) => [entry.title, entry.page]));
    for (const entry of toc) assert.equal(outlined.get(entry.text), entry.page, `"${entry.text}": TOC page ${entry.page}, bookmark ${outlined.get(entry.text)}`);
    // The TOC's own title is a heading too: the outline has it, on page 1.
    assert.equal(outlined.get('Contents'), 1);
    assert.match(pdfText(pdfua, toc.find((entry) => entry.text === 'Outlook')!.page), /^\s*Outlook\s*$/m);
    assertQpdfClean(pdfua);
  });

  test('check --a11y: the --pdfua-ready template passes with no finding at minor (the PDF/UA step runs on its print)', async () => {
    const result = await cli.run(['check', '--a11y', '--no-typecheck', '--a11y-level', 'minor', 'templates/Statement.tsx'], { cwd: project, timeoutMs: COMMAND_MS });
    assert.equal(result.code, 0, result.describe());
    assert.match(result.stdout.toString(), /no accessibility findings/, result.describe());
    assert.doesNotMatch(result.stdout.toString(), /pdf-link-contents/, result.describe());
  });

  test('--stamp DRAFT on the tagged render: structure tree and bookmarks unchanged, the stamp on every page', async () => {
    const stamped = await render('stamped', ['--pdfua', '--stamp', 'DRAFT']);
    const before = pdfStructure(pdfua);
    const after = pdfStructure(stamped);
    assert.ok(before.elements > 20 && before.outlineEntries >= 10, `${before.elements} elements, ${before.outlineEntries} entries`);
    assert.deepEqual(after.structTree, before.structTree);
    assert.deepEqual(after.outline, before.outline);
    for (let page = 1; page <= pdfInfo(stamped).pages; page++) assert.match(pdfText(stamped, page), /DRAFT/, `page ${page}`);
    assertQpdfClean(stamped);
  });

  test('<Field>s with --pdfa 3b: the form survives the PDF/A step', async () => {
    const archived = await render('pdfa', ['--pdfa', '3b']);
    const form = qpdfForm(archived);
    assert.equal(form.hasacroform, true);
    assert.deepEqual(form.fields.map((field) => [field.fullname, field.fieldtype]), [['remarks', '/Tx']]);
    assert.match(withFile(archived, (file) => execFileSync('pdfinfo', ['-meta', file]).toString()), /pdfaid:part>3</);
    assert.match(withFile(archived, (file) => execFileSync('pdfinfo', [file]).toString()), /^Tagged:\s+yes/m);
    assertQpdfClean(archived);
  });

  test('--prepend on the tagged render: one bookmark per part, the document\'s own headings nested under its entry', async () => {
    const cover = path.join(work, 'cover.pdf');
    // A one-page part without a title or an outline of its own: its entry is its file name.
    execFileSync('qpdf', ['--empty', '--pages', path.join(work, 'pdfua.pdf'), '1', '--', cover], { timeout: 60_000 });
    const merged = await render('merged', ['--prepend', cover]);
    const own = pdfOutline(pdfua);
    const shifted = (entries: OutlineEntry[]): OutlineEntry[] => entries.map((entry) => ({ ...entry, page: entry.page + 1, kids: shifted(entry.kids) }));
    assert.deepEqual(titlesAndPages(pdfOutline(merged)), [
      ['cover.pdf', 1, []],
      [TITLE, 2, titlesAndPages(shifted(own))],
    ]);
    assert.equal(pdfInfo(merged).pages, pdfInfo(pdfua).pages + 1);
    assertQpdfClean(merged);
  });

  test('--encrypt on the tagged render: pdfinfo -upw says Tagged: yes, AES-256 (R 6), the outline there once decrypted', async () => {
    const encrypted = await render('encrypted', ['--encrypt', '--user-password', USER_PASSWORD]);
    const info = withFile(encrypted, (file) => execFileSync('pdfinfo', ['-upw', USER_PASSWORD, file]).toString());
    assert.match(info, /^Tagged:\s+yes/m, info);
    assert.match(info, /^Encrypted:\s+yes/m, info);
    const encryption = withFile(encrypted, (file) => execFileSync('qpdf', ['--show-encryption', `--password=${USER_PASSWORD}`, file]).toString());
    assert.match(encryption, /^R = 6$/m, encryption);
    const decrypted = withFile(encrypted, (file) => {
      const out = `${file}.decrypted.pdf`;
      execFileSync('qpdf', ['--decrypt', `--password=${USER_PASSWORD}`, file, out], { timeout: 60_000 });
      try {
        return fs.readFileSync(out);
      } finally {
        fs.rmSync(out, { force: true });
      }
    });
    assert.deepEqual(titlesAndPages(pdfOutline(decrypted)), titlesAndPages(pdfOutline(pdfua)));
    assertQpdfClean(encrypted, USER_PASSWORD);
  });
});
