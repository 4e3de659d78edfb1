/**
 * The stamp step (after the finishing and accessibility steps, before merge, PDF/A and
 * encryption): a stamp drawn over the chosen pages (stamp-options.ts says what, stamp-pages.ts
 * which pages). A test key's TEST (test-key.ts) is one such stamp.
 *
 * Every kind of stamp is first made a one-page PDF (a text drawn in Helvetica Bold, an SVG
 * drawn by pdf-lib, or the given PDF's first page) and embedded once as a form XObject, which
 * each page then draws: a 100-page document gains one object, not a hundred. Each drawing is
 * wrapped in `/Artifact BMC ... EMC`: assistive technology skips it and a tagged PDF's
 * structure tree, its marked content and its outline are left exactly as they were. A text
 * stamp stays text (pdftotext and a viewer's search find it).
 *
 * A PDF of the shape Chromium writes (the step's input: Chromium's file after the finishing,
 * accessibility and form steps) is stamped in place (stamp-in-place.ts), its other objects
 * copied as they are; any other (object streams, an update section, encryption) is loaded
 * and saved whole by pdf-lib, the same drawing.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import { ImprintError } from '../errors.js';
import { EDIT_LOAD_OPTIONS, loadPdfLib, savePlain, type PdfLib } from './pdf-lib.js';
import type { StampContent, StampOptions, StampPosition } from './stamp-options.js';
import { stampInPlace, type Box, type EmbeddedStamp, type Placement } from './stamp-in-place.js';
import { stampPageIndexes } from './stamp-pages.js';

export type { Placement };

/** A text is laid out at this size in its own PDF, then scaled to the size it is drawn at. */
const LAYOUT_SIZE = 100;
/** A text stamp off the centre is this many points high; in the centre a quarter of the page's shorter side. */
const EDGE_TEXT_SIZE = 24;
const MARGIN = 36;
const GREY: [number, number, number] = [0.45, 0.45, 0.45];

/**
 * A stamp of `natural` size on a page of `page` size: scaled to `preferredScale`, shrunk until
 * its rotated outline fits inside the margins, and its outline's centre put where `position` says.
 */
export function placeStamp(page: Box, natural: Box, position: StampPosition, degrees: number, preferredScale: number): Placement {
  const margin = Math.min(MARGIN, Math.min(page.width, page.height) / 10);
  const angle = (degrees * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // The rotated stamp's outline at scale 1.
  const outlineWidth = Math.abs(natural.width * cos) + Math.abs(natural.height * sin);
  const outlineHeight = Math.abs(natural.width * sin) + Math.abs(natural.height * cos);
  const scale = Math.min(preferredScale, (page.width - 2 * margin) / outlineWidth, (page.height - 2 * margin) / outlineHeight);
  const halfWidth = (outlineWidth * scale) / 2;
  const halfHeight = (outlineHeight * scale) / 2;
  const centreX = position.endsWith('left') ? margin + halfWidth : position.endsWith('right') ? page.width - margin - halfWidth : page.width / 2;
  const centreY = position.startsWith('top') ? page.height - margin - halfHeight : position.startsWith('bottom') ? margin + halfHeight : page.height / 2;
  // The stamp turns about its bottom-left corner: start from the centre, back by its rotated half-diagonal.
  const width = natural.width * scale;
  const height = natural.height * scale;
  return { x: centreX - (width / 2) * cos + (height / 2) * sin, y: centreY - (width / 2) * sin - (height / 2) * cos, scale, degrees };
}

/** A text as a one-page PDF exactly its size, in Helvetica Bold (WinAnsi: Latin scripts). */
async function textStampPdf(lib: PdfLib, text: string, color: [number, number, number]): Promise<Uint8Array> {
  const scratch = await lib.PDFDocument.create({ updateMetadata: false });
  const font = await scratch.embedFont(lib.StandardFonts.HelveticaBold);
  const supported = new Set(font.getCharacterSet());
  const unsupported = [...text].find((char) => !supported.has(char.codePointAt(0)!));
  if (unsupported !== undefined) {
    throw new ImprintError('INVALID_INPUT', `The stamp's text holds "${unsupported}", which its font (Helvetica, Latin scripts) cannot draw: use an SVG or PDF stamp (--stamp file.svg) for other scripts.`);
  }
  const height = font.heightAtSize(LAYOUT_SIZE);
  const page = scratch.addPage([font.widthOfTextAtSize(text, LAYOUT_SIZE), height]);
  // The baseline sits the descender's depth above the bottom.
  page.drawText(text, { x: 0, y: height - font.heightAtSize(LAYOUT_SIZE, { descender: false }), size: LAYOUT_SIZE, font, color: lib.rgb(...color) });
  return scratch.save();
}

/** An SVG's size from its root's width and height, else its viewBox. */
function svgSize(svg: string): Box {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const attribute = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(root)?.[1];
  const width = Number.parseFloat(attribute('width') ?? '');
  const height = Number.parseFloat(attribute('height') ?? '');
  if (width > 0 && height > 0) return { width, height };
  const viewBox = (attribute('viewBox') ?? '').trim().split(/[\s,]+/).map(Number);
  if (viewBox.length === 4 && viewBox[2] > 0 && viewBox[3] > 0) return { width: viewBox[2], height: viewBox[3] };
  throw new ImprintError('INVALID_INPUT', 'The stamp SVG has no size: give its <svg> element width and height (in points) or a viewBox.');
}

async function svgStampPdf(lib: PdfLib, svg: string): Promise<Uint8Array> {
  const size = svgSize(svg);
  const scratch = await lib.PDFDocument.create({ updateMetadata: false });
  const page = scratch.addPage([size.width, size.height]);
  // pdf-lib places an SVG by its top-left corner, and draws nothing of one sized by its viewBox
  // alone: the size is written on its root too.
  const sized = /<svg\b[^>]*\swidth\s*=/i.test(svg) ? svg : svg.replace(/<svg\b/i, `<svg width="${size.width}" height="${size.height}"`);
  page.drawSvg(sized, { x: 0, y: size.height, width: size.width, height: size.height });
  return scratch.save();
}

function stampSource(lib: PdfLib, content: StampContent, color: [number, number, number]): Promise<Uint8Array> | Uint8Array {
  if ('text' in content) return textStampPdf(lib, content.text, color);
  if ('svg' in content) return svgStampPdf(lib, content.svg);
  return Buffer.from(content.pdf, 'base64');
}

/** The stamp's one page in `doc`; a stamp PDF pdf-lib cannot read (no page, or an empty one) is the caller's to fix. */
async function embedStamp(doc: PDFDocument, source: Uint8Array) {
  try {
    const [mark] = await doc.embedPdf(source, [0]);
    // Embedded now, not when the document is saved, so a page it cannot use fails here.
    await mark.embed();
    return mark;
  } catch (error) {
    throw new ImprintError('INVALID_INPUT', `The stamp PDF cannot be used: ${error instanceof Error ? error.message : String(error)}. Give an unencrypted PDF whose first page draws something (an SVG must draw something pdf-lib renders).`, { cause: error });
  }
}

/** Where the stamp goes on a page of `size`: a text large in the centre and at a fixed size elsewhere; a file at its own size. */
function placementOn(stamp: StampOptions, size: Box, natural: Box): Placement {
  const degrees = stamp.rotate === 'diagonal' ? (Math.atan2(size.height, size.width) * 180) / Math.PI : stamp.rotate;
  const textSize = stamp.position === 'center' ? Math.min(size.width, size.height) / 4 : EDGE_TEXT_SIZE;
  const preferred = 'text' in stamp.content ? textSize / LAYOUT_SIZE : 1;
  return placeStamp(size, natural, stamp.position, degrees, preferred);
}

export async function stampPdf(pdf: Buffer, stamp: StampOptions): Promise<Buffer> {
  const lib = await loadPdfLib();
  const source = await stampSource(lib, stamp.content, stamp.color ?? GREY);
  const inPlace = await stampInPlace(lib, pdf, {
    pages: stamp.pages,
    opacity: stamp.opacity,
    place: (size, natural) => placementOn(stamp, size, natural),
    embed: async (doc): Promise<EmbeddedStamp> => embedStamp(doc, source),
  });
  return inPlace ?? stampWithPdfLib(pdf, stamp, source);
}

/** The other path: the whole file loaded and saved by pdf-lib (bench/stamp-encrypt.ts times both on one file). */
export async function stampWithPdfLib(pdf: Buffer, stamp: StampOptions, source?: Uint8Array): Promise<Buffer> {
  const lib = await loadPdfLib();
  source ??= await stampSource(lib, stamp.content, stamp.color ?? GREY);
  const doc = await lib.PDFDocument.load(pdf, EDIT_LOAD_OPTIONS);
  const indexes = stampPageIndexes(stamp.pages, doc.getPageCount());
  const mark = await embedStamp(doc, source);
  for (const index of indexes) {
    const page = doc.getPage(index);
    const at = placementOn(stamp, page.getSize(), mark);
    page.pushOperators(lib.beginMarkedContent('Artifact'));
    page.drawPage(mark, { x: at.x, y: at.y, xScale: at.scale, yScale: at.scale, rotate: lib.degrees(at.degrees), opacity: stamp.opacity });
    page.pushOperators(lib.endMarkedContent());
  }
  return savePlain(doc);
}
