/**
 * The documentation reaches an npm user: every guide ships in the package, every relative link
 * of README.md and of the guides names a file `npm pack` puts in the tarball (so it opens in
 * node_modules/imprint/ as on the registry's page, which resolves README links against
 * package.json's `repository`), and every `#anchor` names a heading of its page. The source's
 * mentions of `docs/<name>.md` (--help, messages, the .d.ts comments) name shipped guides too.
 * The file list is `npm pack --dry-run` without its prepack build: the docs need no build.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { ROOT } from '../helpers/cli.js';
import { headingAnchors, markdownLinks } from '../helpers/markdown-links.js';
import { run } from './package-kit.js';

let packed: Set<string>;

before(async () => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const listed = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, env, timeoutMs: 120_000 });
  assert.equal(listed.code, 0, listed.describe());
  const [report] = JSON.parse(listed.stdout.slice(listed.stdout.indexOf('['))) as { files: { path: string }[] }[];
  packed = new Set(report.files.map((file) => file.path));
});

const guides = fs.readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
const pages = ['README.md', ...guides];

test('every guide in docs/ ships in the package', () => {
  assert.ok(guides.length >= 10, `the guides are found (${guides.length})`);
  const missing = guides.filter((guide) => !packed.has(guide));
  assert.deepEqual(missing, [], 'package.json `files` takes docs/ into the tarball');
});

test("package.json names the repository, homepage and bugs a registry page links to", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const url = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  assert.match(url ?? '', /^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/, 'repository: a git+https GitHub URL (npm resolves the README\'s relative links against it)');
  const web = url.replace(/^git\+/, '').replace(/\.git$/, '');
  assert.equal(manifest.homepage, `${web}#readme`);
  assert.equal(manifest.bugs?.url ?? manifest.bugs, `${web}/issues`);
});

for (const page of pages) {
  test(`${page}: every link reaches a file the package ships, every anchor a heading`, () => {
    const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
    const links = markdownLinks(text);
    const broken: string[] = [];
    for (const { line, target } of links) {
      if (/^(https?|mailto):/.test(target)) continue;
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const inPackage = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), file)) : page;
      if (!packed.has(inPackage)) {
        broken.push(`${page}:${line}: ${target} -> ${inPackage} is not in the package`);
        continue;
      }
      if (anchor && inPackage.endsWith('.md') && !headingAnchors(fs.readFileSync(path.join(ROOT, inPackage), 'utf8')).has(anchor)) {
        broken.push(`${page}:${line}: ${target} -> no heading #${anchor} in ${inPackage}`);
      }
    }
    assert.deepEqual(broken, []);
  });
}

test('the guides the source names (--help, messages, .d.ts comments) ship', () => {
  const named = new Map<string, string>();
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (/\.tsx?$/.test(entry.name)) {
        for (const [mention] of fs.readFileSync(file, 'utf8').matchAll(/(?<![\w/.-])docs\/[\w-]+\.md/g)) named.set(mention, path.relative(ROOT, file));
      }
    }
  };
  visit(path.join(ROOT, 'src'));
  assert.ok(named.size > 0, 'the source names guides');
  const missing = [...named].filter(([guide]) => !packed.has(guide)).map(([guide, file]) => `${guide} (named in ${file})`);
  assert.deepEqual(missing, []);
});
