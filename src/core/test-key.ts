/**
 * Test keys (api.md Part F; what DocRaptor, PDFShift and Fileforge call sandbox mode): a
 * render made with one is stamped "TEST" diagonally on every page and not counted against the
 * team's limit. The server marks the caller's team object of such a request (the object made
 * for that request by the key's lookup), and the engine asks here, at the two points where
 * it counts and where it forms the result; nothing else changes.
 */
import { loadPdfLib } from './pdf/pdf-lib.js';
import type { Team } from './store/types.js';

const testTeams = new WeakSet<Team>();

/** This request's team object renders as a test key's: stamped, not counted. */
export function markTestKey(team: Team): Team {
  testTeams.add(team);
  return team;
}

export const isTestKeyRender = (team: Team): boolean => testTeams.has(team);

export const TEST_STAMP = 'TEST';

/** The PDF with a large, translucent, diagonal TEST on every page, drawn as real text (so it can be searched and extracted). */
export async function stampTest(pdf: Buffer): Promise<Buffer> {
  const { PDFDocument, StandardFonts, degrees, rgb } = await loadPdfLib();
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const page of doc.getPages()) {
    const { width, height } = page.getSize();
    const size = Math.min(width, height) / 3;
    const textWidth = font.widthOfTextAtSize(TEST_STAMP, size);
    const angle = Math.atan2(height, width);
    // Centred on the page: start half the text's length back along the diagonal, and half its height across it.
    const x = width / 2 - (Math.cos(angle) * textWidth) / 2 + (Math.sin(angle) * size * 0.35);
    const y = height / 2 - (Math.sin(angle) * textWidth) / 2 - (Math.cos(angle) * size * 0.35);
    page.drawText(TEST_STAMP, { x, y, size, font, color: rgb(0.8, 0.1, 0.1), opacity: 0.22, rotate: degrees((angle * 180) / Math.PI) });
  }
  return Buffer.from(await doc.save({ updateFieldAppearances: false }));
}

