/**
 * The corpus of template projects (issue 35): projects laid out as users lay theirs out
 * (test/fixtures/projects/<name>/), their packages installed from the npm registry as the
 * user's `npm install` would (test/helpers/template-projects.ts), each rendered by the
 * installed package from inside the project, `imprint render templates/X.tsx` as its user
 * types it, then `imprint check`ed (which type-checks with the project's tsconfig).
 *
 * Each PDF's text is read with pdftotext; what proves a stylesheet applied is read off the page:
 * a word's height (pdftotext -bbox), a font's name (pdffonts), an image (pdfimages), or the
 * pixels of a colour only the styled element has (pdftoppm).
 *
 * PostCSS configs in every format (.cjs, .mjs, .postcssrc.json, package.json's "postcss") are
 * test/e2e/postcss-config-formats.test.ts's, on this corpus's Tailwind 3 install; the htmldocs
 * project (documents/templates/, documents/static/, @htmldocs/react and React 18 installed) is
 * test/e2e/htmldocs.test.ts's, on test/fixtures/htmldocs-project installed the same way.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { runCli, tempDir } from '../helpers/cli.js';
import { pdfFonts, pdfText } from '../helpers/pdf.js';
import { countPixels, heightOf, wordBoxes } from '../helpers/pdf-layout.js';
import { installedProject } from '../helpers/template-projects.js';

const execFileAsync = promisify(execFile);

/** An install from a cold cache, then a build and a render on a busy 2-core machine. */
const TEST_TIMEOUT_MS = 12 * 60_000;
const CLI_DEADLINE_MS = 3 * 60_000;

const out = tempDir('imprint-template-projects-');
const dataDir = path.join(out, 'data');
after(() => fs.rmSync(out, { recursive: true, force: true }));

/** `imprint render <template> -o <pdf>` run inside the project, as its user runs it; answers the PDF's path. */
async function render(project: string, template: string, name: string): Promise<string> {
  const pdf = path.join(out, `${name}.pdf`);
  const result = await runCli(['--embedded', 'render', template, '-o', pdf], { cwd: project, env: { IMPRINT_DATA_DIR: dataDir }, timeoutMs: CLI_DEADLINE_MS });
  assert.equal(result.code, 0, result.describe());
  return pdf;
}

interface CheckReport {
  passed: number;
  failed: number;
  templates: Array<{ file: string; passed: boolean; problems: unknown[]; typecheck: { status: string; errors: unknown[] } }>;
}

/** `imprint check --json <template>` inside the project: type check, build, PreviewProps render. */
async function check(project: string, template: string): Promise<CheckReport> {
  const result = await runCli(['--embedded', 'check', '--json', template], { cwd: project, env: { IMPRINT_DATA_DIR: dataDir }, timeoutMs: CLI_DEADLINE_MS });
  assert.equal(result.code, 0, result.describe());
  return JSON.parse(result.stdout.toString()) as CheckReport;
}

/** Every template passed, its types checked with the project's tsconfig (not skipped for want of React's types). */
function assertChecked(report: CheckReport): void {
  const described = JSON.stringify(report, null, 2);
  assert.equal(report.failed, 0, described);
  assert.ok(report.templates.length > 0, described);
  for (const template of report.templates) {
    assert.equal(template.passed, true, described);
    assert.equal(template.typecheck.status, 'passed', described);
  }
}

describe('template projects laid out as users lay them out, rendered by the installed package', () => {
  test('Tailwind 3, CommonJS postcss.config.js and tailwind.config.js, no "type": utilities, the typography plugin\'s prose, autoprefixer', { timeout: TEST_TIMEOUT_MS }, async () => {
    const project = await installedProject('tailwind3-commonjs');
    assert.equal(JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')).type, undefined, 'the project is CommonJS');
    const pdf = await render(project, 'templates/Report.tsx', 'tailwind3');

    const text = pdfText(pdf);
    for (const expected of [/Northwind/, /Quarterly Q3/, /Summary of the quarter\./, /Revenue grew eleven percent/, /Two new regional offices opened/]) assert.match(text, expected);
    const boxes = await wordBoxes(pdf);
    const body = heightOf(boxes, 'Summary');
    // text-6xl (3.75rem) exists only if Tailwind compiled the utilities from tailwind.config.js's content.
    assert.ok(heightOf(boxes, 'Northwind') > 3 * body, `text-6xl: Northwind ${heightOf(boxes, 'Northwind')} pt against body ${body} pt`);
    // Preflight sets an <h1> to the body's size; the typography plugin's .prose makes it 2.25em.
    assert.ok(heightOf(boxes, 'Quarterly') > 1.8 * body, `prose h1: Quarterly ${heightOf(boxes, 'Quarterly')} pt against body ${body} pt`);

    assertChecked(await check(project, 'templates/Report.tsx'));
  });

  test('Tailwind 4, "type": "module", its own @tailwindcss/postcss in postcss.config.mjs: utilities and the project\'s @theme colour', { timeout: TEST_TIMEOUT_MS }, async () => {
    const project = await installedProject('tailwind4-module');
    const pdf = await render(project, 'templates/Card.tsx', 'tailwind4');

    const text = pdfText(pdf);
    assert.match(text, /Welcome/);
    assert.match(text, /Your membership card\./);
    const boxes = await wordBoxes(pdf);
    assert.ok(heightOf(boxes, 'Welcome') > 3 * heightOf(boxes, 'Your'), 'text-6xl took effect');
    // bg-brand is the @theme's #d01010: a 6rem square of it (96 px: one inch, 36x36 pixels at 36 dpi).
    const brand = await countPixels(pdf, (r, g, b) => r > 180 && g < 60 && b < 60);
    assert.ok(brand > 1000, `${brand} pixels of the @theme colour brand`);

    assertChecked(await check(project, 'templates/Card.tsx'));
  });

  test('CSS modules, ~/ and tsconfig paths aliases, a font and an image from static/, an npm package\'s CSS and fonts, react-icons', { timeout: TEST_TIMEOUT_MS }, async () => {
    const project = await installedProject('app-features');
    const pdf = await render(project, 'templates/Brochure.tsx', 'app-features');

    const text = pdfText(pdf);
    assert.match(text, /Harbour tours/, 'the Banner from @components/ (a tsconfig paths alias)');
    assert.match(text, /The Spring season starts at \$1,250\.00 per group\./, 'formatPrice from ~/lib/');
    assert.match(text, /Guide included/);

    const fonts = pdfFonts(pdf);
    assert.match(fonts, /Lobster/, `the @fontsource/lobster package's CSS and its font files:\n${fonts}`);
    assert.match(fonts, /Lora/, `the project's font from static/fonts/:\n${fonts}`);

    const boxes = await wordBoxes(pdf);
    // The CSS module's .banner is 48px (36 pt) against the body's 12 pt.
    assert.ok(heightOf(boxes, 'Harbour') > 2.5 * heightOf(boxes, 'Guide'), 'the CSS module\'s class reached the Banner');

    const { stdout: images } = await execFileAsync('pdfimages', ['-list', pdf], { timeout: 30_000 });
    assert.match(images, /^\s*1\s+\d+\s+image\s+40\s+20\s/m, `static/images/stamp.png (40x20) is drawn:\n${images}`);

    // FaCheckCircle at 96 px in #00a000: only the icon's SVG path is that green.
    const green = await countPixels(pdf, (r, g, b) => g > 120 && r < 60 && b < 60);
    assert.ok(green > 500, `${green} pixels of the react-icons icon's green`);

    assertChecked(await check(project, 'templates/Brochure.tsx'));
  });
});
