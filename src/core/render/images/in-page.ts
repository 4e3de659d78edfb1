/**
 * The page-side half of `optimizeImages`: runs in the page right before the print, with the
 * browser's own codecs (chosen by measurement against sharp in Node: bench/optimize-images.ts,
 * bench/README.md). Given as source text: functions handed to page.evaluate are serialised, and
 * a TypeScript transform may wrap them in helpers the page lacks.
 *
 * What it does, per distinct image (by its bytes, not its URL):
 * - finds every use: <img> elements (their current source) and single-layer CSS background
 *   images, with the size each is printed at. SVG is left alone (vectors print as vectors);
 *   so are <picture> sources, multi-layer backgrounds and images whose bytes the page may not
 *   read (another origin without CORS): they print as before, and are counted as kept.
 * - reads the bytes again with fetch(): from the page's cache, through the same request rules
 *   as the page's own loads (a template page's router and egress rules, a web page's network).
 * - the pixels needed: the largest printed use, in inches, times maxDpi. One source printed at
 *   several sizes becomes one image at the largest, so Chromium still stores it once: its PDF
 *   writer shares an image between uses of one URL, never between URLs (measured: the same
 *   JPEG behind two data URLs is stored twice), so every use of the same bytes is pointed at
 *   one URL, which is how identical images are stored once.
 * - re-encodes: a JPEG source as JPEG, only when it has more pixels than needed; any other
 *   source is drawn at the needed size and becomes a PNG if it has transparency or few colours
 *   (line art, logos, charts: JPEG would blur their edges) and a JPEG otherwise (a photo).
 *   The result is used only when it is smaller than the source's bytes: a file never grows.
 *
 * Sizes are read from the screen layout; the page's window is narrower than a wide paper (A3,
 * landscape), where fluid images print larger, so sizes are widened by the paper's width over the
 * window's (`paperWidthPx`, when larger): images are sized for the wider case, never below maxDpi.
 *
 * Everything it changes is undone by `window.__imprintImages.restore()` after the print, and its
 * blob URLs released: a warm template page prints thousands of documents, and would otherwise
 * keep every one's images in memory. The template's own root is rebuilt by the next render
 * anyway, but a background on <html> or <body> is not: left swapped, its inline style would make
 * the page helper find the page dirty and replace it (template-page.ts).
 */

/** What one run did, for the caller and the bench. */
export interface ImagesReport {
  /** Distinct images (by bytes) found in use. */
  images: number;
  /** Images replaced by a smaller encoding. */
  reencoded: number;
  /** Uses pointed at another URL holding the same bytes. */
  deduplicated: number;
  /** Images printed as they were, with why: 'svg', 'not-larger-than-needed', 'not-smaller', 'unreadable' (a cross-origin source without CORS), 'picture', 'layers'. */
  kept: Record<string, number>;
  bytesBefore: number;
  bytesAfter: number;
  /** Milliseconds in the page, and per re-encoded image. */
  ms: number;
  /** Per image: its source and result pixel sizes and encodings (the bench prints them). */
  details: { from: string; width: number; height: number; to?: { type: string; width: number; height: number; bytes: number }; bytes: number }[];
}

export const IMAGES_GLOBAL = '__imprintImages';

/** `(options: { maxDpi, quality, paperWidthPx }) => Promise<ImagesReport>` */
export const OPTIMIZE_IN_PAGE = `async (options) => {
  const started = performance.now();
  const saved = [];
  const created = [];
  window[${JSON.stringify(IMAGES_GLOBAL)}] = {
    restore() {
      for (const undo of saved.reverse()) undo();
      saved.length = 0;
      for (const url of created) URL.revokeObjectURL(url);
      created.length = 0;
    },
  };
  const report = { images: 0, reencoded: 0, deduplicated: 0, kept: {}, bytesBefore: 0, bytesAfter: 0, ms: 0, details: [] };
  const keep = (why, count = 1) => (report.kept[why] = (report.kept[why] || 0) + count);
  // Image pixels wanted per CSS pixel printed (96 CSS px = 1 inch), widened for a paper wider than the window.
  const perCssPx = (options.maxDpi / 96) * Math.max(1, options.paperWidthPx / window.innerWidth);
  const isSvg = (url) => /^data:image\\/svg/i.test(url) || /\\.svgz?([?#]|$)/i.test(url);

  // Every use: an element, the URL it shows and how large it prints (as a function of the
  // image's natural size, known once decoded).
  const uses = [];
  for (const img of Array.from(document.images)) {
    const url = img.currentSrc || img.src;
    if (!url || !img.complete || img.naturalWidth === 0) continue;
    const box = img.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (isSvg(url)) { keep('svg'); continue; }
    if (img.parentElement && img.parentElement.localName === 'picture') { keep('picture'); continue; }
    const fit = getComputedStyle(img).objectFit;
    uses.push({ kind: 'img', element: img, url, scale: (w, h) => {
      const x = box.width / w, y = box.height / h;
      if (fit === 'contain') return Math.min(x, y);
      if (fit === 'scale-down') return Math.min(1, x, y);
      if (fit === 'none') return 1;
      return Math.max(x, y); // fill (stretched: the finer axis decides) and cover
    } });
  }
  const length = (token, whole) => (token.endsWith('%') ? (parseFloat(token) / 100) * whole : parseFloat(token));
  for (const element of Array.from(document.querySelectorAll('*'))) {
    const style = getComputedStyle(element);
    const image = style.backgroundImage;
    if (!image || image === 'none' || !image.includes('url(')) continue;
    const single = /^url\\("((?:[^"\\\\]|\\\\.)*)"\\)$/.exec(image);
    if (!single) { keep('layers'); continue; }
    const url = single[1].replace(/\\\\(.)/g, '$1');
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (isSvg(url)) { keep('svg'); continue; }
    const size = style.backgroundSize.split(',')[0].trim();
    uses.push({ kind: 'background', element, url, scale: (w, h) => {
      const x = box.width / w, y = box.height / h;
      if (size === 'cover') return Math.max(x, y);
      if (size === 'contain') return Math.min(x, y);
      const [sw = 'auto', sh = 'auto'] = size.split(/\\s+/);
      const sx = sw === 'auto' ? undefined : length(sw, box.width) / w;
      const sy = sh === 'auto' ? undefined : length(sh, box.height) / h;
      return Math.max(sx ?? sy ?? 1, sy ?? sx ?? 1);
    } });
  }

  // The bytes behind each URL, read once; identical bytes are one image whatever their URLs.
  const hash = (bytes) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
    return (h >>> 0).toString(16) + ':' + bytes.length;
  };
  // A base64 data URL (every image a template imports) decoded here: fetch() takes 0.25 s a
  // megabyte for one (measured on the fixture, 1.5 s of its 2.3), this a few milliseconds.
  const readDataUrl = (url) => {
    const match = /^data:([^;,]*)[^,]*;base64,/i.exec(url.slice(0, 300));
    if (!match || typeof Uint8Array.fromBase64 !== 'function') return undefined;
    return new Blob([Uint8Array.fromBase64(url.slice(match[0].length).replace(/\\s+/g, ''))], { type: match[1] });
  };
  const byUrl = new Map();
  const byContent = new Map();
  for (const use of uses) {
    if (!byUrl.has(use.url)) {
      byUrl.set(use.url, (async () => {
        let blob;
        try {
          blob = readDataUrl(use.url) ?? (await (await fetch(use.url, { cache: 'force-cache' })).blob());
        } catch {
          return undefined; // another origin that sends no CORS headers: the page may show it, not read it
        }
        if (/svg/i.test(blob.type)) return 'svg';
        const key = hash(new Uint8Array(await blob.arrayBuffer()));
        let content = byContent.get(key);
        if (!content) byContent.set(key, (content = { key, url: use.url, blob, uses: [] }));
        return content;
      })());
    }
  }
  for (const use of uses) {
    const content = await byUrl.get(use.url);
    if (content === undefined) keep('unreadable');
    else if (content === 'svg') keep('svg');
    else content.uses.push(use);
  }

  const encode = async (bitmap, width, height, photo) => {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d', { alpha: true });
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, width, height);
    let type = 'image/jpeg';
    if (!photo) {
      // Transparency, or few colours (line art): PNG. Colours counted on a sample of pixels.
      const pixels = context.getImageData(0, 0, width, height).data;
      const step = Math.max(1, Math.floor(pixels.length / 4 / 65536)) * 4;
      const colours = new Set();
      let alpha = false;
      for (let i = 0; i < pixels.length; i += step) {
        if (pixels[i + 3] !== 255) { alpha = true; break; }
        if (colours.size <= 4096) colours.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
      }
      if (alpha || colours.size <= 4096) type = 'image/png';
    }
    return canvas.convertToBlob(type === 'image/jpeg' ? { type, quality: options.quality / 100 } : { type });
  };

  for (const content of byContent.values()) {
    report.images += 1;
    report.bytesBefore += content.blob.size;
    let final = content.url;
    const detail = { from: content.blob.type || 'unknown', width: 0, height: 0, bytes: content.blob.size };
    report.details.push(detail);
    let bitmap;
    try {
      bitmap = await createImageBitmap(content.blob);
    } catch {
      keep('unreadable');
      report.bytesAfter += content.blob.size;
      continue;
    }
    detail.width = bitmap.width;
    detail.height = bitmap.height;
    const scale = Math.max(...content.uses.map((use) => use.scale(bitmap.width, bitmap.height))) * perCssPx;
    const jpeg = /jpe?g/i.test(content.blob.type);
    if (scale >= 1 && jpeg) {
      keep('not-larger-than-needed');
    } else {
      const width = Math.max(1, Math.round(bitmap.width * Math.min(1, scale)));
      const height = Math.max(1, Math.round(bitmap.height * Math.min(1, scale)));
      const out = await encode(bitmap, width, height, jpeg);
      if (out.size < content.blob.size) {
        final = URL.createObjectURL(out);
        created.push(final);
        report.reencoded += 1;
        detail.to = { type: out.type, width, height, bytes: out.size };
      } else keep('not-smaller');
    }
    bitmap.close();
    report.bytesAfter += detail.to ? detail.to.bytes : content.blob.size;
    // Loaded before any element shows it: the print does not wait for a background to load.
    if (final !== content.url) {
      const probe = new Image();
      probe.src = final;
      await probe.decode();
    }
    report.deduplicated += new Set(content.uses.map((use) => use.url)).size - 1;
    for (const use of content.uses) {
      if (use.url === final) continue;
      const element = use.element;
      if (use.kind === 'img') {
        const attributes = ['src', 'srcset', 'sizes'].map((name) => [name, element.getAttribute(name)]);
        saved.push(() => { for (const [name, value] of attributes) value === null ? element.removeAttribute(name) : element.setAttribute(name, value); });
        element.removeAttribute('srcset');
        element.removeAttribute('sizes');
        element.setAttribute('src', final);
      } else {
        const value = element.style.getPropertyValue('background-image');
        const priority = element.style.getPropertyPriority('background-image');
        saved.push(() => (value ? element.style.setProperty('background-image', value, priority) : element.style.removeProperty('background-image')));
        element.style.setProperty('background-image', 'url("' + final + '")', 'important');
      }
    }
  }
  await Promise.all(uses.filter((use) => use.kind === 'img').map((use) => use.element.decode().catch(() => undefined)));
  report.ms = performance.now() - started;
  return report;
}`;
