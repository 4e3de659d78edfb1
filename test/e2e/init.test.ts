/**
 * `imprint init`: the project it writes renders with the one command it prints, with no
 * node_modules of its own (imprint's React and components are used), passes `imprint check`,
 * and with its packages, `imprint check` type-checks it. That `npm install` and
 * `tsc --noEmit --strict` pass in it is test/e2e/init-project.test.ts, from the installed package.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { cliWithDataDir, ROOT, tempDir } from '../helpers/cli.js';
import { linkProjectModules } from '../helpers/project-modules.js';
import { pdfInfo, pdfText } from '../helpers/pdf.js';

const cli = cliWithDataDir();

describe('imprint init', () => {
  const project = path.join(tempDir(), 'my-templates');
  let renderCommand: string[];
  let initOutput: string;

  before(async () => {
    const result = await cli.run(['init', project]);
    assert.equal(result.code, 0, result.describe());
    // The command it tells the user to run, taken from its own output.
    initOutput = result.stderr;
    const said = /Render it: cd \S+ && imprint (render .+)$/m.exec(result.stderr);
    assert.ok(said, result.stderr);
    renderCommand = said[1].split(' ');
  });

  test('writes a project: package.json with react, tsconfig, a template with its static folder and props file', () => {
    for (const file of ['package.json', 'tsconfig.json', 'README.md', '.gitignore', '.github/workflows/templates.yml', 'snapshots/README.md', 'templates/Invoice.tsx', 'templates/invoice.css', 'templates/static/logo.svg', 'templates/Invoice.props.json']) {
      assert.ok(fs.existsSync(path.join(project, file)), file);
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8'));
    assert.equal(manifest.name, 'my-templates');
    assert.ok(manifest.dependencies.react && manifest.dependencies['react-dom']);
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
    assert.equal(manifest.devDependencies.imprint, `^${version}`, 'the imprint that wrote it');
    // Committed, the project works in every clone: no path of this machine in what init wrote.
    for (const file of ['package.json', 'tsconfig.json', '.github/workflows/templates.yml']) {
      const text = fs.readFileSync(path.join(project, file), 'utf8');
      for (const local of [ROOT, project]) assert.ok(!text.includes(local), `${file} names ${local}`);
    }
    assert.ok(!fs.existsSync(path.join(project, 'node_modules')), 'nothing installed');
    assert.match(fs.readFileSync(path.join(project, 'templates', 'Invoice.tsx'), 'utf8'), /from 'imprint\/react'/);
  });

  test('renders with the printed command, without node_modules: page furniture, props and the static logo', async () => {
    const result = await cli.run(renderCommand, { cwd: project });
    assert.equal(result.code, 0, result.describe());
    const pdf = path.join(project, 'invoice.pdf');
    assert.equal(pdfInfo(pdf).pages, 1);
    const text = pdfText(pdf);
    const props = JSON.parse(fs.readFileSync(path.join(project, 'templates', 'Invoice.props.json'), 'utf8'));
    assert.match(text, new RegExp(props.number));
    assert.match(text, new RegExp(props.customer.name));
    assert.match(text, /Page 1 of 1/);
    assert.match(text, /Acme/, 'the SVG logo from static/ (its text is drawn as text)');
  });

  test('the starter prints as its comment says: no header on page 1, the header and "Page N of M" on the others', async () => {
    const props = JSON.parse(fs.readFileSync(path.join(project, 'templates', 'Invoice.props.json'), 'utf8'));
    const line = { description: 'Consulting hour', quantity: 1, unitPrice: 100 };
    const long = { ...props, lines: Array.from({ length: 60 }, () => line) };
    const result = await cli.run(['render', 'templates/Invoice.tsx', '--props', '-', '-o', '-'], { cwd: project, stdin: JSON.stringify(long) });
    assert.equal(result.code, 0, result.describe());
    const count = pdfInfo(result.stdout).pages;
    assert.ok(count >= 2, `pages: ${count}`);
    const header = new RegExp(`Invoice ${props.number}\\s+${props.customer.name}`);
    const first = pdfText(result.stdout, 1);
    assert.doesNotMatch(first, header, first);
    assert.match(first, new RegExp(`Page 1 of ${count}`));
    for (let page = 2; page <= count; page++) {
      const text = pdfText(result.stdout, page);
      assert.match(text, header, `page ${page}`);
      assert.match(text, new RegExp(`Page ${page} of ${count}`), `page ${page}`);
    }
  });

  test('`imprint check` in the project passes; before `npm install` it says the types were not checked, and why', async () => {
    const result = await cli.run(['check'], { cwd: project });
    assert.equal(result.code, 0, result.describe());
    assert.match(result.stdout.toString(), /1 template checked: 1 passed, 0 failed/);
    assert.match(result.stdout.toString(), /✔ templates\/Invoice\.tsx rendered, PreviewProps match the props type, types not checked/);
    assert.match(result.stderr, /Type check skipped: the types of `react\/jsx-runtime` \(React's, for JSX\) are not installed in .*: run `npm install` there/);
  });

  test('scaffolds a snapshot folder and a CI workflow; the snapshot command it prints records, then passes', async () => {
    const workflow = fs.readFileSync(path.join(project, '.github', 'workflows', 'templates.yml'), 'utf8');
    // The project's own imprint (its devDependency) and its types, installed before the check.
    assert.match(workflow, /run: npm install\n\s+- run: npx imprint check --snapshot snapshots/);
    assert.match(workflow, /poppler-utils/);
    assert.ok(fs.existsSync(path.join(project, 'snapshots', 'README.md')));
    const ignored = fs.readFileSync(path.join(project, '.gitignore'), 'utf8');
    assert.match(ignored, /^!snapshots\/\*\.pdf$/m, 'snapshots are committed although *.pdf is ignored');
    assert.match(ignored, /^snapshots\/__diff__\/$/m);

    const said = /Record its snapshots.*: cd \S+ && imprint (check .+)$/m.exec(initOutput);
    assert.ok(said, initOutput);
    const recorded = await cli.run(said[1].split(' '), { cwd: project });
    assert.equal(recorded.code, 0, recorded.describe());
    const snapshot = fs.readFileSync(path.join(project, 'snapshots', 'Invoice.pdf'));
    assert.match(pdfText(snapshot), /INV-0001/);
    assert.match(snapshot.toString('latin1'), /\/Lang \(en-GB\)/, "the starter's metadata static");
    const checked = await cli.run(['check', '--snapshot', 'snapshots'], { cwd: project });
    assert.equal(checked.code, 0, checked.describe());
    assert.match(checked.stdout.toString(), /snapshot Invoice: same bytes/);
  });

  test('with its packages, `imprint check` type-checks the project: a wrong prop fails it at its line', async () => {
    // What `npm install` would give the project (React's types and TypeScript: project-modules.ts);
    // imprint itself is not among them, so `imprint/react` and `imprint/client` resolve to the
    // running imprint's, as the bundler's do.
    linkProjectModules(project);
    const template = path.join(project, 'templates', 'Invoice.tsx');
    const original = fs.readFileSync(template, 'utf8');
    try {
      const clean = await cli.run(['check'], { cwd: project });
      assert.equal(clean.code, 0, clean.describe());
      assert.match(clean.stdout.toString(), /✔ templates\/Invoice\.tsx rendered, PreviewProps match the props type, no type errors/);
      assert.match(clean.stderr, /Type-checked 1 template with TypeScript [\d.]+ \(the project's\) and tsconfig\.json/);

      fs.writeFileSync(template, original.replace('<Header pages="first" />', '<Header pages="sometimes" />'));
      const line = original.split('\n').findIndex((text) => text.includes('<Header pages="first" />')) + 1;
      const failed = await cli.run(['check'], { cwd: project });
      assert.equal(failed.code, 1, failed.describe());
      const report = failed.stdout.toString();
      // One error, that one: everything else in the template (imprint/react, React, the CSS import) type-checks.
      assert.match(report, new RegExp(`templates/Invoice\\.tsx:${line}:\\d+ - error TS2322: Type '"sometimes"' is not assignable`));
      assert.equal(report.match(/error TS\d+/g)?.length, 1, report);
    } finally {
      fs.writeFileSync(template, original);
      fs.rmSync(path.join(project, 'node_modules'), { recursive: true });
    }
  });

  test('refuses a folder that is not empty: a usage error, nothing overwritten', async () => {
    const before = fs.readFileSync(path.join(project, 'package.json'), 'utf8');
    const result = await cli.run(['init', project]);
    assert.equal(result.code, 2, result.describe());
    assert.match(result.stderr, /is not empty/);
    assert.equal(fs.readFileSync(path.join(project, 'package.json'), 'utf8'), before);
  });
});
