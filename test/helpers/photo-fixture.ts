/**
 * An image-heavy document for `optimizeImages` (issue 40), made the same way every time: its
 * photos are drawn by Chromium from a seeded generator (gradients, soft shapes, grain: what
 * makes a camera picture expensive to store) and encoded by Chromium as JPEG or PNG, then
 * written into one HTML page as data URLs. Used by the e2e test and bench/optimize-images.ts.
 *
 * The page: page 1 text and vectors only (SVG, CSS borders); page 2 and 3 the pictures:
 * - `hero` a 2400x1600 JPEG, 6.5 in wide, and the same JPEG again as a CSS background 3 in
 *   wide (one image at the larger size afterwards);
 * - `twin` the same JPEG bytes under a second data URL (stored twice by Chromium as it is);
 * - `shot` a 1800x1200 PNG photo (a screenshot of a picture), 4 in wide;
 * - `logo` a 1200x400 PNG with transparency, 2 in wide (stays a PNG with its alpha);
 * - `thumb` a 240x160 JPEG 2 in wide: already under 150 dpi, printed as it is.
 */
import type { Browser } from 'puppeteer-core';

export interface PhotoSpec {
  seed: number;
  width: number;
  height: number;
  type: 'image/jpeg' | 'image/png';
  /** Line art on a transparent ground instead of a photo. */
  transparent?: boolean;
}

/** Page-side: the data URL of one generated image (source text: it runs in the page). */
const DRAW = `async (spec) => {
  let state = spec.seed >>> 0;
  const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296);
  const canvas = document.createElement('canvas');
  canvas.width = spec.width;
  canvas.height = spec.height;
  const g = canvas.getContext('2d');
  if (spec.transparent) {
    g.fillStyle = '#1d4ed8';
    g.beginPath();
    g.arc(spec.height / 2, spec.height / 2, spec.height * 0.4, 0, Math.PI * 2);
    g.fill();
    g.fillStyle = '#111827';
    g.font = 'bold ' + Math.round(spec.height * 0.45) + 'px sans-serif';
    g.fillText('ACME', spec.height * 1.05, spec.height * 0.66);
  } else {
    const sky = g.createLinearGradient(0, 0, spec.width, spec.height);
    sky.addColorStop(0, 'hsl(' + Math.floor(random() * 360) + ',55%,55%)');
    sky.addColorStop(1, 'hsl(' + Math.floor(random() * 360) + ',45%,35%)');
    g.fillStyle = sky;
    g.fillRect(0, 0, spec.width, spec.height);
    for (let i = 0; i < 160; i++) {
      const x = random() * spec.width, y = random() * spec.height, r = (0.02 + random() * 0.15) * spec.width;
      const blob = g.createRadialGradient(x, y, 0, x, y, r);
      blob.addColorStop(0, 'hsla(' + Math.floor(random() * 360) + ',70%,60%,0.45)');
      blob.addColorStop(1, 'hsla(0,0%,50%,0)');
      g.fillStyle = blob;
      g.fillRect(x - r, y - r, 2 * r, 2 * r);
    }
    const pixels = g.getImageData(0, 0, spec.width, spec.height);
    for (let i = 0; i < pixels.data.length; i += 4) {
      const grain = (random() - 0.5) * 24;
      pixels.data[i] += grain; pixels.data[i + 1] += grain; pixels.data[i + 2] += grain;
    }
    g.putImageData(pixels, 0, 0);
  }
  return canvas.toDataURL(spec.type, 0.92);
}`;

export const FIXTURE_PHOTOS = {
  hero: { seed: 1, width: 2400, height: 1600, type: 'image/jpeg' },
  shot: { seed: 2, width: 1800, height: 1200, type: 'image/png' },
  logo: { seed: 3, width: 1200, height: 400, type: 'image/png', transparent: true },
  thumb: { seed: 4, width: 240, height: 160, type: 'image/jpeg' },
} satisfies Record<string, PhotoSpec>;

export type FixtureImages = Record<keyof typeof FIXTURE_PHOTOS, string>;

/** The fixture's images as data URLs, drawn and encoded by `browser`. */
export async function drawFixtureImages(browser: Browser): Promise<FixtureImages> {
  const page = await browser.newPage();
  try {
    const entries = await Promise.all(Object.entries(FIXTURE_PHOTOS).map(async ([name, spec]) => [name, (await page.evaluate(`(${DRAW})(${JSON.stringify(spec)})`)) as string]));
    return Object.fromEntries(entries) as FixtureImages;
  } finally {
    await page.close();
  }
}

/** The same JPEG under another data URL: a media type parameter changes the URL, not the bytes. */
const twinUrl = (dataUrl: string) => dataUrl.replace(/^data:image\/jpeg;base64,/, 'data:image/jpeg;name=twin.jpg;base64,');

/** The fixture document: page 1 text and vectors, pages 2-3 the pictures. */
export function imageHeavyHtml(images: FixtureImages): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  @page { size: A4; margin: 15mm }
  body { font: 11pt sans-serif; margin: 0 }
  .page { break-after: page }
  .frame { border: 2pt solid #1d4ed8; border-radius: 6pt; padding: 8pt; margin: 8pt 0 }
  img { display: block; margin: 6pt 0 }
  .banner { width: 3in; height: 2in; background: url("${images.hero}") center / cover no-repeat }
</style></head><body>
<section class="page" id="text-only">
  <h1>Quarterly field report</h1>
  <p>Text and vectors only on this page: it must print the same with and without image optimisation.</p>
  <div class="frame"><p>Sites visited: 14. Samples taken: 212. Anomalies: 3.</p></div>
  <svg width="400" height="160" viewBox="0 0 400 160"><rect x="10" y="10" width="120" height="140" fill="#1d4ed8"/><circle cx="220" cy="80" r="60" fill="#f59e0b"/><path d="M300 150 L350 10 L390 150 Z" fill="#10b981"/></svg>
</section>
<section class="page" id="photos">
  <h2>Site photos</h2>
  <img alt="hero" src="${images.hero}" style="width: 6.5in">
  <div class="banner" role="img" aria-label="banner"></div>
  <img alt="logo" src="${images.logo}" style="width: 2in">
</section>
<section id="more">
  <img alt="twin" src="${twinUrl(images.hero)}" style="width: 3in">
  <img alt="shot" src="${images.shot}" style="width: 4in">
  <img alt="thumb" src="${images.thumb}" style="width: 2in">
</section>
</body></html>`;
}
