/**
 * Reading PDFs with poppler's tools (Debian's poppler-utils, Homebrew's poppler): the text of
 * each page (pdftotext) and each page as a PNG (pdftoppm). Only a snapshot whose bytes differ
 * needs them.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ImprintError } from '../errors.js';

const run = promisify(execFile);

async function poppler(tool: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(tool, args, { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
    return stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ImprintError(
        'INTERNAL',
        `${tool} is not installed; comparing a snapshot whose bytes changed needs poppler: apt-get install poppler-utils (Debian, Ubuntu), brew install poppler (macOS).`,
        { cause: error },
      );
    }
    throw new ImprintError('INTERNAL', `${tool} could not read a PDF: ${(error as { stderr?: string }).stderr?.trim() || (error as Error).message}`, { cause: error });
  }
}

/** A PDF in a folder of its own, for tools that take a path; the folder is removed after `use`. */
export async function withPdfFile<T>(pdf: Buffer, use: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'imprint-snapshot-'));
  try {
    const file = path.join(dir, 'document.pdf');
    await fs.writeFile(file, pdf);
    return await use(file, dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The text of each page, as lines in reading order, trailing spaces trimmed. */
export async function pageTexts(file: string): Promise<string[][]> {
  const text = await poppler('pdftotext', ['-enc', 'UTF-8', file, '-']);
  // pdftotext ends every page with a form feed: the part after the last one is not a page.
  return text
    .split('\f')
    .slice(0, -1)
    .map((page) => page.split('\n').map((line) => line.trimEnd()).filter((line) => line !== ''));
}

/** Each page as a PNG at `dpi`, in page order. */
export async function rasterize(file: string, dpi: number): Promise<Buffer[]> {
  const dir = path.dirname(file);
  await poppler('pdftoppm', ['-r', String(dpi), '-png', file, path.join(dir, 'page')]);
  // pdftoppm pads page numbers to the width of the last one (page-01.png ... page-12.png).
  const pages = (await fs.readdir(dir))
    .map((name) => ({ name, page: Number(/^page-(\d+)\.png$/.exec(name)?.[1]) }))
    .filter((entry) => Number.isInteger(entry.page))
    .sort((a, b) => a.page - b.page);
  return Promise.all(pages.map((entry) => fs.readFile(path.join(dir, entry.name))));
}
