/**
 * `--optimize-images` / `optimizeImages` (issue 40), from the installed package with a real
 * Chromium: the image-heavy fixture (test/helpers/photo-fixture.ts, its photos drawn by Chromium
 * from a seeded generator) through `imprint generate`, a local template project with an
 * imported photo and a static/ one as a CSS background through `imprint render`, and the
 * service's API, where one warm template page renders with and without the option in turn.
 * Checked by content with poppler: `pdfimages -list` (pixel sizes, encodings, one object per
 * distinct image, the PNG's soft mask), pdftotext and pdftoppm (a page of text and vectors
 * prints the same).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import puppeteer from 'puppeteer-core';
import { request } from 'undici';
import { cliWithDataDir, runCli, tempDir } from '../helpers/cli.js';
import { drawFixtureImages, imageHeavyHtml, type FixtureImages } from '../helpers/photo-fixture.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { createTeamKey } from '../helpers/team-key.js';

const execFileAsync = promisify(execFile);
const POPPLER_MS = 30_000;

interface ListedImage {
  page: number;
  type: string;
  width: number;
  height: number;
  enc: string;
  object: number;
}

/** `pdfimages -list`, one row per use of an image (and one per soft mask). */
async function listImages(pdf: string): Promise<ListedImage[]> {
  const { stdout } = await execFileAsync('pdfimages', ['-list', pdf], { timeout: POPPLER_MS });
  return stdout
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => {
      const c = line.trim().split(/\s+/);
      return { page: Number(c[0]), type: c[2]!, width: Number(c[3]), height: Number(c[4]), enc: c[8]!, object: Number(c[10]) };
    });
}

const pageText = async (pdf: string, page: number) => (await execFileAsync('pdftotext', ['-f', String(page), '-l', String(page), pdf, '-'], { timeout: POPPLER_MS })).stdout;

/** Page `page` at 72 dpi as raw RGB (pdftoppm's PPM). */
async function pagePixels(pdf: string, page: number): Promise<{ width: number; height: number; rgb: Buffer }> {
  const { stdout } = await execFileAsync('pdftoppm', ['-r', '72', '-f', String(page), '-l', String(page), '-singlefile', pdf], { timeout: POPPLER_MS, encoding: 'buffer', maxBuffer: 64 << 20 });
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(stdout.subarray(0, 64).toString('latin1'));
  assert.ok(header, `pdftoppm gave no 8-bit PPM for ${pdf}`);
  return { width: Number(header[1]), height: Number(header[2]), rgb: stdout.subarray(header[0].length) };
}

/** The share of pixels of page `page` that differ (any channel by more than 8 of 255) between two PDFs. */
async function pixelDifference(a: string, b: string, page: number): Promise<number> {
  const [left, right] = await Promise.all([pagePixels(a, page), pagePixels(b, page)]);
  assert.deepEqual([left.width, left.height], [right.width, right.height], 'same page size');
  let differing = 0;
  for (let at = 0; at + 2 < left.rgb.length; at += 3) {
    if (Math.abs(left.rgb[at]! - right.rgb[at]!) > 8 || Math.abs(left.rgb[at + 1]! - right.rgb[at + 1]!) > 8 || Math.abs(left.rgb[at + 2]! - right.rgb[at + 2]!) > 8) differing++;
  }
  return differing / (left.width * left.height);
}

const bytesOf = (dataUrl: string) => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');

/** A template project as a user has one: an imported photo in an <img>, a static/ photo (PNG) as a CSS background. */
function writeProject(dir: string, images: FixtureImages): string {
  fs.mkdirSync(path.join(dir, 'templates'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'static'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "photo-report", "private": true, "type": "module" }\n');
  fs.writeFileSync(path.join(dir, 'templates', 'hero.jpg'), bytesOf(images.hero));
  fs.writeFileSync(path.join(dir, 'static', 'shot.png'), bytesOf(images.shot));
  fs.writeFileSync(path.join(dir, 'templates', 'logo.png'), bytesOf(images.logo));
  const file = path.join(dir, 'templates', 'Photos.tsx');
  fs.writeFileSync(
    file,
    `import hero from './hero.jpg';
import logo from './logo.png';

export default function Photos(props: { title: string }) {
  return (
    <main>
      <h1>{props.title}</h1>
      <img src={hero} style={{ width: '3in', display: 'block' }} alt="hero" />
      <div style={{ width: '4in', height: '2in', background: 'url(/static/shot.png) center / cover no-repeat' }} />
      <img src={logo} style={{ width: '2in', display: 'block' }} alt="logo" />
    </main>
  );
}
Photos.PreviewProps = { title: 'Site photos' };
`,
  );
  return file;
}

describe('optimizeImages', { timeout: 600_000 }, () => {
  const dir = tempDir('imprint-images-');
  const cli = cliWithDataDir();
  let images: FixtureImages;
  let fixture: string;
  let template: string;

  before(async () => {
    const browser = await puppeteer.launch({
      executablePath: process.env.IMPRINT_BROWSER ?? '/usr/bin/chromium',
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      timeout: 60_000,
    });
    try {
      images = await drawFixtureImages(browser);
    } finally {
      await browser.close();
    }
    fixture = path.join(dir, 'fixture.html');
    fs.writeFileSync(fixture, imageHeavyHtml(images));
    template = writeProject(path.join(dir, 'project'), images);
  });

  test('generate: 700 KB and more as printed today, under 300 KB optimised; sizes, encodings, one object per image, alpha kept', async () => {
    const plain = path.join(dir, 'plain.pdf');
    const small = path.join(dir, 'small.pdf');
    const printed = await cli.run(['generate', '--html', fixture, '-o', plain]);
    assert.equal(printed.code, 0, printed.describe());
    const optimised = await cli.run(['generate', '--html', fixture, '--optimize-images', '-o', small]);
    assert.equal(optimised.code, 0, optimised.describe());
    const [before, after] = [fs.statSync(plain).size, fs.statSync(small).size];
    assert.ok(before >= 700 * 1024, `the fixture prints ${before} bytes today: at least 700 KB`);
    assert.ok(after < 300 * 1024, `optimised: ${after} bytes, under 300 KB (from ${before})`);

    // As printed today: the hero JPEG stored twice (two data URLs of the same bytes), the PNG photo raw.
    const today = await listImages(plain);
    assert.equal(new Set(today.filter((row) => row.width === 2400).map((row) => row.object)).size, 2, 'today: the same JPEG under two URLs is two objects');

    const rows = await listImages(small);
    const hero = rows.filter((row) => row.type === 'image' && row.enc === 'jpeg' && row.width === 975);
    // 6.5 in at 150 dpi; its 3 in background and its twin URL share the one object.
    assert.equal(hero.length, 3, JSON.stringify(rows));
    assert.equal(hero[0]!.height, 650);
    assert.equal(new Set(hero.map((row) => row.object)).size, 1, 'one object for the three uses of the same bytes');
    assert.ok(rows.some((row) => row.enc === 'jpeg' && row.width === 600 && row.height === 400), `the PNG photo, 4 in wide, is a 600x400 JPEG: ${JSON.stringify(rows)}`);
    assert.ok(rows.some((row) => row.enc === 'jpeg' && row.width === 240 && row.height === 160), 'the small JPEG (under 150 dpi) prints as it was');
    const logo = rows.filter((row) => row.width === 300 && row.height === 100);
    assert.deepEqual(logo.map((row) => row.type).sort(), ['image', 'smask'], `the transparent PNG stays a PNG with its soft mask: ${JSON.stringify(rows)}`);
    assert.ok(logo.every((row) => row.enc === 'image'), 'the logo is not a JPEG');
    assert.ok(!rows.some((row) => row.width > 975), 'no image has more pixels than it prints at');

    // Page 1, text and vectors only: the same text, and under 1 % of its pixels differ at 72 dpi.
    assert.equal(await pageText(small, 1), await pageText(plain, 1));
    assert.match(await pageText(small, 1), /Quarterly field report/);
    const difference = await pixelDifference(plain, small, 1);
    assert.ok(difference < 0.01, `page 1 differs in ${(difference * 100).toFixed(2)} % of its pixels`);
    assert.equal(await pageText(small, 2), await pageText(plain, 2), 'the text of the photo pages is kept too');
  });

  test('render a local template: an imported JPEG and a static/ PNG background downscaled, the logo kept as PNG', async () => {
    const plain = path.join(dir, 'template-plain.pdf');
    const small = path.join(dir, 'template-small.pdf');
    const printed = await cli.run(['render', template, '-o', plain]);
    assert.equal(printed.code, 0, printed.describe());
    const optimised = await cli.run(['render', template, '--optimize-images', '--image-dpi', '100', '--image-quality', '70', '-o', small]);
    assert.equal(optimised.code, 0, optimised.describe());
    const today = await listImages(plain);
    assert.ok(today.some((row) => row.width === 2400 && row.height === 1600), JSON.stringify(today));
    // Chromium stores a background cropped to what its box shows: 1800 wide, the height cut.
    assert.ok(today.some((row) => row.width === 1800), JSON.stringify(today));
    const rows = await listImages(small);
    assert.ok(rows.some((row) => row.enc === 'jpeg' && row.width === 300 && row.height === 200), `the hero, 3 in at 100 dpi: ${JSON.stringify(rows)}`);
    // A 4 x 2 in box covered by a 3:2 image: 4 in wide, 400 px at 100 dpi (400x267, the height cut to the box by Chromium).
    assert.ok(rows.some((row) => row.enc === 'jpeg' && row.width === 400 && row.height <= 267), `the static/ PNG background as a JPEG: ${JSON.stringify(rows)}`);
    assert.deepEqual(rows.filter((row) => row.width === 200 && row.height === 67).map((row) => row.type).sort(), ['image', 'smask']);
    assert.ok(fs.statSync(small).size < fs.statSync(plain).size / 10, 'a tenth of the size or less');
    assert.equal(await pageText(small, 1), await pageText(plain, 1));
  });

  test('flags and fields refused with what to do', async () => {
    const alone = await cli.run(['generate', '--html', fixture, '--image-dpi', '200']);
    assert.equal(alone.code, 2, alone.describe());
    assert.match(alone.stderr, /--image-dpi goes with --optimize-images/);
    const low = await cli.run(['generate', '--html', fixture, '--optimize-images', '--image-dpi', '10']);
    assert.equal(low.code, 2, low.describe());
    assert.match(low.stderr, /optimizeImages\.maxDpi 10: expected a whole number from 36 to 1200/);
  });

  describe('the service', () => {
    const serviceData = tempDir('imprint-images-serve-');
    const operator = cliWithDataDir(serviceData);
    let serve: ServeProcess;
    let key: string;

    before(async () => {
      key = await createTeamKey(operator);
      // One slot: the renders below take turns on one warm page of the template.
      serve = await startServeProcess({ dataDir: serviceData, args: ['--concurrency', '1'] });
      const published = await runCli(['publish', template, '--id', 'photos', '--api-url', serve.url, '--api-key', key], { env: { IMPRINT_CONFIG_DIR: tempDir('imprint-config-') } });
      assert.equal(published.code, 0, published.describe());
    });

    after(async () => {
      const code = await serve?.stop();
      assert.equal(code, 0, `serve stops cleanly:\n${serve?.output()}`);
    });

    const post = async (route: string, body: unknown) => {
      const response = await request(`${serve.url}${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        headersTimeout: 120_000,
        bodyTimeout: 120_000,
      });
      return { status: response.statusCode, body: Buffer.from(await response.body.arrayBuffer()) };
    };
    const widths = async (pdf: Buffer, name: string) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, pdf);
      return (await listImages(file)).filter((row) => row.type === 'image').map((row) => row.width).sort((a, b) => a - b);
    };

    test('one warm template page: optimised, then as it was, then optimised again', async () => {
      const props = { title: 'From the API' };
      const first = await post('/api/documents/photos', { props, optimizeImages: { maxDpi: 72 } });
      assert.equal(first.status, 200, first.body.toString());
      assert.deepEqual(await widths(first.body, 'api-1.pdf'), [144, 216, 288]);
      const second = await post('/api/documents/photos', { props });
      assert.equal(second.status, 200, second.body.toString());
      assert.deepEqual(await widths(second.body, 'api-2.pdf'), [1200, 1800, 2400]);
      const third = await post('/api/documents/photos', { props, optimizeImages: true });
      assert.equal(third.status, 200, third.body.toString());
      assert.deepEqual(await widths(third.body, 'api-3.pdf'), [300, 450, 600]);
    });

    test('a bad optimizeImages is a 400 that says what fits', async () => {
      const refused = await post('/api/generate', { html: '<p>x</p>', optimizeImages: { quality: 0 } });
      assert.equal(refused.status, 400, refused.body.toString());
      const answer = JSON.parse(refused.body.toString());
      assert.match(answer.error, /quality/);
      assert.equal(typeof answer.code, 'string');
    });
  });
});
