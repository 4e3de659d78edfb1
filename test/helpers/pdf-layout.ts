/**
 * What a PDF's page looks like, for proving a stylesheet took effect: where its words are and
 * how tall (pdftotext -bbox), and the colours of its pixels (pdftoppm to a PPM, read here: the
 * format is a header and raw RGB bytes). Every poppler run has a deadline.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const POPPLER_DEADLINE_MS = 30_000;

export interface WordBox {
  word: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
  /** Height in points: the font size the word was set in, give or take its line box. */
  height: number;
}

/** The words of one page (1-based) with their boxes in points, in reading order. */
export async function wordBoxes(pdf: string, page = 1): Promise<WordBox[]> {
  const { stdout } = await execFileAsync('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), pdf, '-'], { timeout: POPPLER_DEADLINE_MS });
  return [...stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((match) => {
    const [xMin, yMin, xMax, yMax] = [1, 2, 3, 4].map((group) => Number(match[group]));
    return { word: match[5]!, xMin, yMin, xMax, yMax, height: yMax - yMin };
  });
}

/** The height of the first word `word` on the page; throws, listing the words found, when it is not there. */
export function heightOf(boxes: WordBox[], word: string): number {
  const box = boxes.find((candidate) => candidate.word === word);
  if (!box) throw new Error(`No word "${word}" on the page; words: ${boxes.map((candidate) => candidate.word).join(' ')}`);
  return box.height;
}

/** How many pixels of page `page` (rendered at `dpi`) `matches` accepts. */
export async function countPixels(pdf: string, matches: (r: number, g: number, b: number) => boolean, options: { page?: number; dpi?: number } = {}): Promise<number> {
  const page = String(options.page ?? 1);
  const { stdout } = await execFileAsync('pdftoppm', ['-r', String(options.dpi ?? 36), '-f', page, '-l', page, '-singlefile', pdf], {
    timeout: POPPLER_DEADLINE_MS,
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  // "P6\n<width> <height>\n<maxval>\n" then width*height RGB triplets.
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(stdout.subarray(0, 64).toString('latin1'));
  if (!header || header[3] !== '255') throw new Error(`pdftoppm gave no 8-bit PPM for ${pdf}`);
  const pixels = stdout.subarray(header[0].length);
  let count = 0;
  for (let at = 0; at + 2 < pixels.length; at += 3) if (matches(pixels[at]!, pixels[at + 1]!, pixels[at + 2]!)) count++;
  return count;
}
