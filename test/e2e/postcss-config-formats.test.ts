/**
 * A template project's own PostCSS config, in every format PostCSS reads, loaded by the BUILT
 * CLI (bin/imprint.js → dist/) as users run it (issue 35): the CLI is one ES module bundle, and
 * a bundled CommonJS config loader once failed there with "__filename is not defined".
 *
 * Each project is written into a temporary folder laid out as users lay theirs out: Tailwind 3
 * (`@tailwind` directives, a tailwind.config.js) named in the config, plus a plugin of the
 * project's own (mark-plugin.cjs) that prints which config loaded it into the PDF, so the text
 * proves the config itself ran and the heading's size proves Tailwind's class took effect.
 * tailwindcss 3 is the one the corpus's Tailwind 3 project installs from the registry
 * (test/fixtures/projects/tailwind3-commonjs, test/helpers/template-projects.ts), linked in as
 * each project's node_modules/tailwindcss: not the checkout's, which the installed package
 * must not read (scripts/checkout-guard.mjs).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { runCli, tempDir } from '../helpers/cli.js';
import { heightOf, wordBoxes } from '../helpers/pdf-layout.js';
import { installedProject } from '../helpers/template-projects.js';

const execFileAsync = promisify(execFile);
let tailwindV3: string;
const work = tempDir('imprint-postcss-formats-');
after(() => fs.rmSync(work, { recursive: true, force: true }));

const TEMPLATE = `import './styles.css';

export default function Template() {
  return (
    <main className="p-4">
      <h1 className="text-6xl">Heading</h1>
      <p className="marker">Body</p>
    </main>
  );
}
`;

const CSS = '@tailwind base;\n@tailwind components;\n@tailwind utilities;\n';

// Adds generated text after `.marker`: pdftotext reads it, so a PDF shows which config ran.
const MARK_PLUGIN = `module.exports = (options = {}) => ({
  postcssPlugin: 'fixture-mark',
  Once(root, { Rule }) {
    root.append(new Rule({ selector: '.marker::after' }).append({ prop: 'content', value: JSON.stringify(' loaded-by-' + options.format) }));
  },
});
module.exports.postcss = true;
`;

const TAILWIND_CONFIG_CJS = "module.exports = { content: ['./**/*.tsx'], theme: { extend: {} }, plugins: [] };\n";
const TAILWIND_CONFIG_ESM = "export default { content: ['./**/*.tsx'], theme: { extend: {} }, plugins: [] };\n";

const plugins = (format: string) => ({ tailwindcss: {}, './mark-plugin.cjs': { format } });
const pluginsSource = (format: string) => JSON.stringify(plugins(format), null, 2);

interface Project {
  format: string;
  /** What the project's own plugin prints: which config loaded it. */
  marker: string;
  /** Without it the package.json has no "type", as most Tailwind 3 projects' do not. */
  module?: boolean;
  files?: Record<string, string>;
  manifest?: Record<string, unknown>;
}

const PROJECTS: Project[] = [
  { format: 'postcss.config.js (CommonJS)', marker: 'cjs-js', files: { 'postcss.config.js': `module.exports = { plugins: ${pluginsSource('cjs-js')} };\n` } },
  { format: 'postcss.config.js (ES module)', marker: 'esm-js', module: true, files: { 'postcss.config.js': `export default { plugins: ${pluginsSource('esm-js')} };\n` } },
  { format: 'postcss.config.cjs', marker: 'cjs', module: true, files: { 'postcss.config.cjs': `module.exports = { plugins: ${pluginsSource('cjs')} };\n` } },
  { format: 'postcss.config.mjs', marker: 'mjs', files: { 'postcss.config.mjs': `export default { plugins: ${pluginsSource('mjs')} };\n` } },
  { format: '.postcssrc.json', marker: 'postcssrc-json', files: { '.postcssrc.json': `{ "plugins": ${pluginsSource('postcssrc-json')} }\n` } },
  { format: 'package.json "postcss"', marker: 'package-json', manifest: { postcss: { plugins: plugins('package-json') } } },
];

function writeProject(project: Project): string {
  const dir = path.join(work, project.format.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, ''));
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  fs.symlinkSync(tailwindV3, path.join(dir, 'node_modules', 'tailwindcss'), 'junction');
  const manifest = { name: 'postcss-project', private: true, ...(project.module ? { type: 'module' } : {}), ...project.manifest };
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'Template.tsx': TEMPLATE,
    'styles.css': CSS,
    'mark-plugin.cjs': MARK_PLUGIN,
    'tailwind.config.js': project.module ? TAILWIND_CONFIG_ESM : TAILWIND_CONFIG_CJS,
    ...project.files,
  };
  for (const [name, contents] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), contents);
  return dir;
}

describe('a project\'s PostCSS config, loaded by the built CLI', () => {
  before(async () => {
    tailwindV3 = path.join(await installedProject('tailwind3-commonjs'), 'node_modules', 'tailwindcss');
  }, { timeout: 10 * 60_000 });

  for (const project of PROJECTS) {
    test(`${project.format}${project.module ? ', "type": "module"' : ', no "type"'}: Tailwind 3 and the project's own plugin run`, { timeout: 240_000 }, async () => {
      const dir = writeProject(project);
      const pdf = path.join(dir, 'out.pdf');
      const rendered = await runCli(['render', 'Template.tsx', '-o', pdf, '--data-dir', path.join(dir, '.data')], { cwd: dir, timeoutMs: 180_000 });
      assert.equal(rendered.code, 0, rendered.describe());

      const { stdout: text } = await execFileAsync('pdftotext', [pdf, '-'], { timeout: 30_000 });
      assert.match(text, /Heading/);
      assert.match(text, new RegExp(`Body\\s*loaded-by-${project.marker}`), `the config's own plugin ran:\n${text}`);
      // text-6xl is 3.75rem (45 pt) against the body's 1rem (12 pt): Tailwind generated the class.
      const boxes = await wordBoxes(pdf);
      const heading = heightOf(boxes, 'Heading');
      const body = heightOf(boxes, 'Body');
      assert.ok(heading > 3 * body, `Heading ${heading} pt high, Body ${body} pt: text-6xl took effect`);
    });
  }
});
