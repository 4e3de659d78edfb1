/**
 * What a visible signature shows in its box (a `<Signature>` of imprint/react): who signed (the
 * certificate's common name), when, and why, in Helvetica (a standard font every viewer has, so
 * nothing is embedded), sized so the longest line fits the box. The box's border and background
 * are the page's own drawing; this is the text over it.
 */
import { X509Certificate } from 'node:crypto';
import type { PdfLib } from '../pdf-lib.js';

export interface AppearanceText {
  certificate: Buffer;
  signingTime: Date;
  reason?: string;
}

const MAX_FONT_SIZE = 10;
const PADDING = 2;
/** The line height, as a multiple of the font size. */
const LEADING = 1.25;

/** The certificate's subject common name, else its whole subject. */
export function signerName(certificate: Buffer): string {
  const subject = new X509Certificate(certificate).subject;
  return /^CN=(.*)$/m.exec(subject)?.[1] ?? subject.replace(/\n/g, ', ');
}

/** The lines the box shows. */
export function appearanceLines(text: AppearanceText): string[] {
  const when = `${text.signingTime.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  return [`Digitally signed by ${signerName(text.certificate)}`, `Date: ${when}`, ...(text.reason ? [`Reason: ${text.reason}`] : [])];
}

/** Helvetica's WinAnsi bytes as a hex string; a character it lacks shows as "?". */
function winAnsi(line: string): string {
  const bytes = [...line].map((char) => (char.charCodeAt(0) < 256 && char.length === 1 ? char.charCodeAt(0) : 0x3f));
  return `<${Buffer.from(bytes).toString('hex')}>`;
}

/** The appearance's content stream and its font resource, for a box `width` x `height` pt. */
export function appearanceContent(lib: PdfLib, text: AppearanceText, width: number, height: number): { content: string; font: string } {
  const lines = appearanceLines(text);
  const helvetica = lib.StandardFontEmbedder.for(lib.StandardFonts.Helvetica as unknown as Parameters<PdfLib['StandardFontEmbedder']['for']>[0]);
  const widest = Math.max(...lines.map((line) => helvetica.widthOfTextAtSize(line, 1)));
  const size = Math.max(1, Math.min(MAX_FONT_SIZE, (width - 2 * PADDING) / widest, (height - 2 * PADDING) / (lines.length * LEADING)));
  const top = height - PADDING - size;
  const shown = lines.map((line, i) => `1 0 0 1 ${PADDING} ${(top - i * size * LEADING).toFixed(2)} Tm ${winAnsi(line)} Tj`).join('\n');
  return {
    content: `q 0 g BT /Helv ${size.toFixed(2)} Tf\n${shown}\nET Q`,
    font: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  };
}
