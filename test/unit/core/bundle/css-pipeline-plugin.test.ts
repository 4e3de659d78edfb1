import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as esbuild from 'esbuild';
import { bundleTemplate } from '../../../../src/core/bundle/bundle-template.js';
import { cssPipelinePlugin } from '../../../../src/core/bundle/css-pipeline-plugin.js';
import { loadTailwindPlugins, tailwindFlavor } from '../../../../src/core/bundle/css-tailwind.js';
import { ImprintError } from '../../../../src/core/errors.js';
import { ROOT } from '../../../helpers/checkout.js';

const fixture = (name: string, ...rest: string[]) => path.join(ROOT, 'test', 'fixtures', name, ...rest);
const compact = (css: string) => css.replace(/\s+/g, '');

async function buildCss(name: string): Promise<string> {
  const { artifact } = await bundleTemplate(fixture(name, 'Template.tsx'));
  return compact(artifact.css);
}

async function buildError(name: string): Promise<ImprintError> {
  try {
    await bundleTemplate(fixture(name, 'Template.tsx'));
  } catch (error) {
    assert.ok(error instanceof ImprintError, `expected an ImprintError, got ${String(error)}`);
    return error;
  }
  assert.fail(`${name} built, but it should have failed`);
}

function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

describe('tailwindFlavor', () => {
  test('recognises v4 imports and v3 directives, and nothing in plain CSS', () => {
    assert.equal(tailwindFlavor('@import "tailwindcss";'), 'v4');
    assert.equal(tailwindFlavor("@import 'tailwindcss' source('../src');"), 'v4');
    assert.equal(tailwindFlavor('@import "tailwindcss/utilities.css" layer(utilities);'), 'v4');
    assert.equal(tailwindFlavor('@reference "tailwindcss";\n.a { @apply p-4; }'), 'v4');
    assert.equal(tailwindFlavor('@tailwind base;\n@tailwind components;\n@tailwind utilities;'), 'v3');
    assert.equal(tailwindFlavor('@import "../../theme.css";\n.tailwindcss { color: red }'), undefined);
    assert.equal(tailwindFlavor('.a { color: red }'), undefined);
  });
});

describe('cssPipelinePlugin', () => {
  test('leaves plain CSS to esbuild: onLoad returns undefined', async () => {
    let onLoad: ((args: esbuild.OnLoadArgs) => Promise<esbuild.OnLoadResult | undefined>) | undefined;
    const build = { onLoad: (_options: unknown, callback: typeof onLoad) => (onLoad = callback) } as unknown as esbuild.PluginBuild;
    await cssPipelinePlugin(fixture('css-plain')).setup(build);
    assert.ok(onLoad);
    const result = await onLoad({ path: fixture('css-plain', 'plain.css'), namespace: 'file', suffix: '', pluginData: undefined, with: {} });
    assert.equal(result, undefined);
  });

  test('plain CSS comes out as esbuild alone would produce it', async () => {
    const source = fs.readFileSync(fixture('css-plain', 'plain.css'), 'utf8');
    const alone = await esbuild.transform(source, { loader: 'css', minify: true, target: ['chrome120'] });
    assert.equal(await buildCss('css-plain'), compact(alone.code));
  });

  test('Tailwind v4: generates the rules of the classes the template uses, and no others', async () => {
    const css = await buildCss('css-tailwind4');
    assert.match(css, /\.text-red-500\{color:var\(--color-red-500\)\}/);
    assert.match(css, /\.p-4\{padding:/);
    assert.match(css, /\.invoice-title\{font-weight:700\}/, 'the file\'s own rules are kept');
    assert.doesNotMatch(css, /\.text-blue-500/);
    assert.doesNotMatch(css, /@import/, 'Tailwind inlines its imports');
  });

  test('Tailwind v4 from imprint\'s own install when the project has none', async () => {
    // Outside this repository, so nothing above the project has a node_modules.
    const project = tempDir('imprint-css-fallback-');
    try {
      fs.cpSync(fixture('css-tailwind4'), project, { recursive: true });
      const { artifact } = await bundleTemplate(path.join(project, 'Template.tsx'));
      assert.match(compact(artifact.css), /\.text-red-500\{color:var\(--color-red-500\)\}/);
      assert.doesNotMatch(compact(artifact.css), /\.text-blue-500/);
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });

  test('a project PostCSS config runs its plugins, once loaded for a batch of builds', async () => {
    for (let i = 0; i < 3; i++) {
      const css = await buildCss('css-postcss-config');
      assert.match(css, /\.heading\{color:#123456;--fixture-mark:postcss-config\}/);
    }
    assert.equal((globalThis as { __cssPipelineConfigLoads?: number }).__cssPipelineConfigLoads, 1);
  });

  test('a PostCSS config that lists Tailwind: Tailwind scans the project, then the other plugins run', async () => {
    const css = await buildCss('css-postcss-tailwind');
    assert.match(css, /\.text-red-500\{color:var\(--color-red-500\);--fixture-mark:after-tailwind\}/);
    // This test file mentions text-blue-500: the config's own Tailwind (scanning the working
    // directory, i.e. the repository) would have generated it.
    assert.doesNotMatch(css, /\.text-blue-500/);
  });

  test('a CSS syntax error is BUILD_FAILED with file:line:column and the reason', async () => {
    const error = await buildError('css-syntax-error');
    assert.equal(error.code, 'BUILD_FAILED');
    assert.match(error.message, /broken\.css:3:1: Unclosed block/);
  });

  test('v3 directives with only Tailwind v4 around: BUILD_FAILED saying what to install', async () => {
    await assert.rejects(loadTailwindPlugins('v3', fixture('css-tailwind4'), ROOT), (error: ImprintError) => {
      assert.equal(error.code, 'BUILD_FAILED');
      assert.match(error.message, /tailwindcss 4\.\d+\.\d+/);
      assert.match(error.message, /npm install -D tailwindcss@3/);
      return true;
    });
  });

  test('Tailwind requested but installed nowhere: BUILD_FAILED with the install command', async () => {
    const project = tempDir('imprint-css-no-tailwind-');
    const fallback = tempDir('imprint-css-no-fallback-');
    try {
      fs.writeFileSync(path.join(project, 'package.json'), '{"name":"bare"}');
      await assert.rejects(loadTailwindPlugins('v4', project, fallback), (error: ImprintError) => {
        assert.equal(error.code, 'BUILD_FAILED');
        assert.match(error.message, /npm install -D tailwindcss @tailwindcss\/postcss/);
        return true;
      });
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
      fs.rmSync(fallback, { recursive: true, force: true });
    }
  });
});

describe('Tailwind v3', () => {
  // The fixture is a project with its own tailwindcss v3: imprint's devDependency
  // `tailwindcss-v3` (npm:tailwindcss@3) linked in as its node_modules/tailwindcss, since
  // the repository's own `tailwindcss` is v4. node_modules is gitignored, so the test links it.
  const v3 = path.join(ROOT, 'node_modules', 'tailwindcss-v3');
  const link = fixture('css-tailwind3', 'node_modules', 'tailwindcss');
  const available = fs.existsSync(path.join(v3, 'package.json'));

  before(() => {
    if (!available) return;
    fs.rmSync(path.dirname(link), { recursive: true, force: true });
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(v3, link, 'junction');
  });
  after(() => fs.rmSync(path.dirname(link), { recursive: true, force: true }));

  test('generates the used classes from the project config, whatever the working directory', { skip: !available && 'tailwindcss-v3 is not installed (npm install)' }, async () => {
    // The fixture's content glob is relative ('./*.tsx') and the tests run from the repository
    // root, so finding the classes proves the glob is anchored to the project.
    const css = await buildCss('css-tailwind3');
    assert.match(css, /\.text-red-500\{--tw-text-opacity:1;color:rgb\(/);
    assert.match(css, /\.p-4\{padding:1rem\}/);
    assert.doesNotMatch(css, /\.text-blue-500/);
  });
});
