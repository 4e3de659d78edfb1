/**
 * `imprint check --a11y` (issue 38) through the installed CLI on a template project laid out as
 * users lay theirs out: package.json, a tsconfig.json whose `jsx` is react-jsx, templates/ with
 * a component folder. axe-core runs in the real Chromium; each finding must name its rule and
 * the TSX line of the element (inside an imported component: that component's line), the
 * document-wide ones the template's `metadata`; the tagged PDF is read back. The examples shipped
 * in templates-example/ pass.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { blockOf } from '../helpers/check-report.js';
import { cliWithDataDir, EXAMPLES, tempDir, type CliResult } from '../helpers/cli.js';

const work = tempDir('imprint-check-a11y-');
after(() => fs.rmSync(work, { recursive: true, force: true }));

const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', jsx: 'react-jsx', strict: true, noEmit: true, skipLibCheck: true }, include: ['templates'] };
const DOT = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
const META = `{ title: 'Statement', language: 'en-GB' }`;

/** Each file's text; the line numbers the assertions name are counted from these. */
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'acme-docs', private: true, type: 'module' }),
  'tsconfig.json': JSON.stringify(TSCONFIG),
  // Line 4, column 5: the <img> without alt, in the author's own component.
  'templates/parts/Stamp.tsx': `export function Stamp() {
  return (
    <div className="stamp">
    <img src="${DOT}" width={24} height={24} />
    </div>
  );
}
`,
  'templates/NoAlt.tsx': `import { Stamp } from './parts/Stamp';

export default function NoAlt() {
  return (
    <main>
      <h1>Receipt</h1>
      <Stamp />
    </main>
  );
}
NoAlt.metadata = ${META};
NoAlt.PreviewProps = {};
`,
  'templates/NoLanguage.tsx': `export default function NoLanguage() {
  return <h1>Statement</h1>;
}
NoLanguage.metadata = { title: 'Statement' };
NoLanguage.PreviewProps = {};
`,
  // Line 5, column 7: grey on white, 1.9:1.
  'templates/LowContrast.tsx': `export default function LowContrast() {
  return (
    <main>
      <h1>Statement</h1>
      <p style={{ color: '#bbbbbb', background: '#ffffff' }}>Balance due within 30 days</p>
    </main>
  );
}
LowContrast.metadata = ${META};
LowContrast.PreviewProps = {};
`,
  // Line 5, column 7: an h3 right after the h1.
  'templates/SkippedHeading.tsx': `export default function SkippedHeading() {
  return (
    <main>
      <h1>Statement</h1>
      <h3>Details</h3>
      <p>Everything is in order.</p>
    </main>
  );
}
SkippedHeading.metadata = ${META};
SkippedHeading.PreviewProps = {};
`,
  'templates/Good.tsx': `import { Document } from 'imprint/react';

export default function Good({ total }: { total: string }) {
  return (
    <Document size="A5">
      <main>
        <h1>Statement</h1>
        <img src="${DOT}" alt="Acme Ltd" width={24} height={24} />
        <h2>Total</h2>
        <p style={{ color: '#333333' }}>{total}</p>
      </main>
    </Document>
  );
}
Good.metadata = ${META};
Good.PreviewProps = { total: '€ 12.00' };
`,
};

let project: string;
const cli = cliWithDataDir();
const check = (args: string[]) => cli.run(['check', '--a11y', '--no-typecheck', ...args], { cwd: project, timeoutMs: 180_000 });

before(() => {
  project = path.join(work, 'acme-docs');
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    fs.writeFileSync(path.join(project, file), text);
  }
});

describe('imprint check --a11y', { timeout: 300_000 }, () => {
  let negatives: CliResult;
  let report: string;

  before(async () => {
    negatives = await check(['templates/NoAlt.tsx', 'templates/NoLanguage.tsx', 'templates/LowContrast.tsx', 'templates/SkippedHeading.tsx']);
    report = negatives.stdout.toString();
  });

  test('an <img> without alt fails with image-alt at the line of the component that wrote it', () => {
    assert.equal(negatives.code, 1, negatives.describe());
    const block = blockOf(report, 'templates/NoAlt.tsx');
    assert.match(block, /^✖ /);
    assert.match(block, /✖ templates\/parts\/Stamp\.tsx:4:5 <img>: Images must have alternative text.* \(image-alt, critical\)/);
  });

  test('a document without a language fails with html-has-lang at its metadata, said once', () => {
    const block = blockOf(report, 'templates/NoLanguage.tsx');
    assert.match(block, /✖ templates\/NoLanguage\.tsx:4:12 The document has no language.*`language`.*\(html-has-lang, serious\)/);
    assert.doesNotMatch(block, /pdf-lang/, 'the PDF-side /Lang check does not repeat it');
  });

  test('low contrast fails with color-contrast at the line of the <p>', () => {
    const block = blockOf(report, 'templates/LowContrast.tsx');
    assert.match(block, /✖ templates\/LowContrast\.tsx:5:7 <p>: Elements must meet minimum color contrast ratio thresholds.*contrast of 1\.9\d.*\(color-contrast, serious\)/);
  });

  test('a skipped heading level is listed below the default level, and fails at --a11y-level moderate', async () => {
    const block = blockOf(report, 'templates/SkippedHeading.tsx');
    assert.match(block, /^✔ /, 'moderate findings do not fail at the default level (serious)');
    assert.match(block, /! templates\/SkippedHeading\.tsx:5:7 <h3>: Heading levels should only increase by one.*\(heading-order, moderate\)/);
    const moderate = await check(['--a11y-level', 'moderate', 'templates/SkippedHeading.tsx']);
    assert.equal(moderate.code, 1, moderate.describe());
    assert.match(moderate.stdout.toString(), /✖ templates\/SkippedHeading\.tsx:5:7 <h3>.*\(heading-order, moderate\)/);
    assert.match(moderate.stderr, /1 of 1 template failed the check/);
  });

  test('--json: each finding with its rule, impact, position and element', async () => {
    const json = await check(['--json', 'templates/NoAlt.tsx', 'templates/Good.tsx']);
    assert.equal(json.code, 1, json.describe());
    const parsed = JSON.parse(json.stdout.toString());
    assert.deepEqual([parsed.passed, parsed.failed], [1, 1]);
    const [noAlt, good] = parsed.templates;
    assert.equal(noAlt.a11y.level, 'serious');
    assert.equal(noAlt.a11y.passed, false);
    const finding = noAlt.a11y.findings.find((entry: { rule: string }) => entry.rule === 'image-alt');
    assert.deepEqual(finding.at, { file: 'templates/parts/Stamp.tsx', line: 4, column: 5 });
    assert.equal(finding.impact, 'critical');
    assert.equal(finding.source, 'page');
    assert.match(finding.element, /^<img /);
    assert.match(finding.helpUrl, /^https:\/\/dequeuniversity\.com\/rules\/axe\//);
    assert.deepEqual(good.a11y, { level: 'serious', passed: true, findings: [] });
  });

  test('the positive fixture passes with no finding at any level: tagged PDF with /Lang and a title, the image has its alt', async () => {
    const good = await check(['--a11y-level', 'minor', 'templates/Good.tsx']);
    assert.equal(good.code, 0, good.describe());
    assert.match(good.stdout.toString(), /✔ templates\/Good\.tsx[^]*no accessibility findings/);
  });

  test('every template in templates-example/ passes', async () => {
    const examples = ['invoice/Invoice.tsx', 'letter/Letter.tsx', 'report/Report.tsx'].map((file) => path.join(EXAMPLES, file));
    const result = await cli.run(['check', '--a11y', '--no-typecheck', ...examples], { cwd: project, timeoutMs: 180_000 });
    assert.equal(result.code, 0, result.describe());
    assert.match(result.stdout.toString(), /3 templates checked: 3 passed, 0 failed/);
  });

  test('a wrong --a11y-level is a usage error that lists the levels', async () => {
    const wrong = await check(['--a11y-level', 'severe', 'templates/Good.tsx']);
    assert.equal(wrong.code, 2, wrong.describe());
    assert.match(wrong.stderr, /--a11y-level takes minor, moderate, serious, critical/);
  });
});
