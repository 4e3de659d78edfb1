/**
 * Issue 41, case 6: `imprint check --einvoice` unpacks the official rules into the user's cache
 * and runs their XSLT, which decides what is "Valid". Before, it used whatever it found there:
 * rules another local user planted in a cache folder set to a shared place made a broken invoice
 * "Valid", and a cache folder that was a symbolic link to someone else's folder had 131 files
 * unpacked into it. Now the cache folder must be this user's alone: one others could write is
 * made anew (the real rules unpacked), one that is another user's or a link is refused by name,
 * nothing read from it or written through it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT } from '../helpers/checkout.js';
import { EXAMPLES, runCli, tempDir } from '../helpers/cli.js';

const work = tempDir('imprint-rules-cache-');
const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const NOBODY = 65534;
let brokenInvoice: string;

after(() => fs.rmSync(work, { recursive: true, force: true }));

/** `imprint check --einvoice -` with its cache at `<cacheHome>/imprint` (XDG_CACHE_HOME). */
const check = (cacheHome: string, xml: string) => runCli(['check', '--einvoice', '-'], { cwd: work, stdin: xml, timeoutMs: 240_000, env: { XDG_CACHE_HOME: cacheHome } });

/** The real rules, every Schematron XSLT replaced by one that finds nothing: what an attacker plants. */
function plantRules(cacheDir: string): void {
  const planted = path.join(cacheDir, `einvoice-rules-${version}`);
  fs.cpSync(path.join(ROOT, 'rules', 'einvoice'), planted, { recursive: true });
  const blank = '<xsl:stylesheet version="2.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl"/></xsl:template></xsl:stylesheet>';
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.xslt?$/.test(entry.name)) fs.writeFileSync(file, blank);
    }
  };
  walk(planted);
}

before(async () => {
  const made = await runCli(['einvoice', path.join(EXAMPLES, 'invoice', 'Invoice.tsx'), '--props', path.join(EXAMPLES, 'invoice', 'props.json')], { cwd: work, timeoutMs: 240_000 });
  assert.equal(made.code, 0, made.describe());
  brokenInvoice = made.stdout.toString().replace('<ram:GrandTotalAmount>34230.78<', '<ram:GrandTotalAmount>34230.00<');
  assert.notEqual(brokenInvoice, made.stdout.toString(), 'the grand total was changed');
});

test('a cache folder others can write, holding planted rules: made anew, and the real rules find BR-CO-15', async () => {
  const home = path.join(work, 'shared-writable');
  const cacheDir = path.join(home, 'imprint');
  fs.mkdirSync(cacheDir, { recursive: true });
  plantRules(cacheDir);
  fs.chmodSync(cacheDir, 0o777);
  const checked = await check(home, brokenInvoice);
  assert.equal(checked.code, 1, checked.describe());
  assert.match(checked.stderr, /BR-CO-15/);
  assert.equal(fs.statSync(cacheDir).mode & 0o777, 0o700, 'the folder made anew is private');
});

test("a cache folder that is another user's, holding planted rules: refused by name (exit 2), nothing read from it", async () => {
  const home = path.join(work, 'foreign');
  const cacheDir = path.join(home, 'imprint');
  fs.mkdirSync(cacheDir, { recursive: true });
  plantRules(cacheDir);
  fs.chownSync(cacheDir, NOBODY, NOBODY);
  const checked = await check(home, brokenInvoice);
  assert.equal(checked.code, 2, checked.describe());
  assert.match(checked.stderr, new RegExp(`cache folder ${cacheDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} belongs to another user \\(uid ${NOBODY}\\).*set XDG_CACHE_HOME`, 's'));
  assert.doesNotMatch(checked.stdout.toString(), /Valid|✔ EN 16931/);
});

test('a cache folder that is a symbolic link to another folder: refused, nothing unpacked through it', async () => {
  const home = path.join(work, 'linked');
  const victim = path.join(work, 'victim');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(victim);
  fs.symlinkSync(victim, path.join(home, 'imprint'));
  const checked = await check(home, brokenInvoice);
  assert.equal(checked.code, 2, checked.describe());
  assert.match(checked.stderr, /is a symbolic link/);
  assert.deepEqual(fs.readdirSync(victim), [], 'nothing written into the link target');
});

test('a private cache folder: the rules are unpacked once and used (the broken invoice fails, a second check reads the same folder)', async () => {
  const home = path.join(work, 'own');
  const first = await check(home, brokenInvoice);
  assert.equal(first.code, 1, first.describe());
  assert.match(first.stderr, /BR-CO-15/);
  const unpacked = path.join(home, 'imprint', `einvoice-rules-${version}`);
  const madeAt = fs.statSync(unpacked).mtimeMs;
  const second = await check(home, brokenInvoice);
  assert.equal(second.code, 1, second.describe());
  assert.equal(fs.statSync(unpacked).mtimeMs, madeAt, 'not unpacked again');
});
