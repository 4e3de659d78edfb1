/**
 * Reads PDFs by their content with poppler-utils (installed by scripts/setup.sh): page
 * count and page size from pdfinfo, text per page from pdftotext, fonts from pdffonts.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Runs `read` on a file holding `pdf` (a path is used as it is), removed afterwards. */
export function withFile<T>(pdf: Buffer | string, read: (file: string) => T): T {
  if (typeof pdf === 'string') return read(pdf);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-pdf-'));
  const file = path.join(dir, 'doc.pdf');
  fs.writeFileSync(file, pdf);
  try {
    return read(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface PdfInfo {
  pages: number;
  widthPt: number;
  heightPt: number;
}

/** poppler's options to open a file encrypted with a user password (none: the empty one). */
const userPassword = (password?: string) => (password === undefined ? [] : ['-upw', password]);

export function pdfInfo(pdf: Buffer | string, password?: string): PdfInfo {
  return withFile(pdf, (file) => {
    const text = execFileSync('pdfinfo', [...userPassword(password), file]).toString();
    const pages = Number(/^Pages:\s+(\d+)/m.exec(text)?.[1]);
    const size = /^Page size:\s+([\d.]+) x ([\d.]+) pts/m.exec(text);
    if (!size || !pages) throw new Error(`pdfinfo could not read the PDF:\n${text}`);
    return { pages, widthPt: Number(size[1]), heightPt: Number(size[2]) };
  });
}

/** Text of the whole document, or of page N (1-based); `password`: an encrypted file's user password. */
export function pdfText(pdf: Buffer | string, page?: number, password?: string): string {
  return withFile(pdf, (file) => {
    const range = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
    return execFileSync('pdftotext', ['-layout', ...userPassword(password), ...range, file, '-']).toString();
  });
}

export function pdfFonts(pdf: Buffer | string): string {
  return withFile(pdf, (file) => execFileSync('pdffonts', [file]).toString());
}

export const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString() === '%PDF-';

/**
 * Chromium lays pages out on a 1/300 inch grid, so a PDF's MediaBox lands within a point of
 * the size asked for (A4 comes out as 594.96 x 841.92): "right to the point".
 */
export function sizeMatches(info: PdfInfo, widthPt: number, heightPt: number, tolerancePt = 1): boolean {
  return Math.abs(info.widthPt - widthPt) <= tolerancePt && Math.abs(info.heightPt - heightPt) <= tolerancePt;
}

/** Raster images in the PDF, as `pdfimages -list` reports them (width x height each). */
export function pdfImages(pdf: Buffer | string): { width: number; height: number }[] {
  return withFile(pdf, (file) =>
    execFileSync('pdfimages', ['-list', file])
      .toString()
      .split('\n')
      .slice(2)
      .filter((line) => line.trim())
      .map((line) => {
        const cols = line.trim().split(/\s+/);
        return { width: Number(cols[3]), height: Number(cols[4]) };
      }),
  );
}
