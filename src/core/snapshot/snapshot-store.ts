/**
 * A snapshot folder: `<name>.pdf` per case, recorded by `--update` and committed; and, after a
 * failed comparison, `__diff__/<name>/` with the actual PDF and per changed page the
 * expected, actual and diff PNGs (left out of version control). A case's diff folder is
 * cleared each time it is checked, so what is there belongs to the last run.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ImprintError } from '../errors.js';
import { comparePdfs, type CompareOptions, type PageDifference } from './compare-pdfs.js';

export const DIFF_FOLDER = '__diff__';

export interface SnapshotOptions extends CompareOptions {
  dir: string;
  /** Record the actual PDF as the snapshot where it is missing or its bytes differ. */
  update: boolean;
}

/** `missing`: no snapshot and no --update; `recorded`/`updated`: written by --update. */
export type SnapshotStatus = 'passed' | 'failed' | 'missing' | 'recorded' | 'updated';

export interface ChangedPage extends Omit<PageDifference, 'images'> {
  files: { expected: string; actual: string; diff: string };
}

export interface SnapshotOutcome {
  name: string;
  snapshot: string;
  status: SnapshotStatus;
  /** Passed with the same bytes (else: the same text and pixels). */
  identical?: boolean;
  pageCount?: { expected: number; actual: number };
  changedPages: ChangedPage[];
  /** Where the actual PDF was written, when the case did not pass. */
  actualPdf?: string;
}

async function readIfThere(file: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function writeFile(file: string, bytes: Buffer): Promise<void> {
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, bytes);
  } catch (error) {
    throw new ImprintError('OUTPUT_FAILED', `Cannot write ${file}: ${(error as Error).message}`, { cause: error });
  }
}

export async function checkSnapshot(name: string, actual: Buffer, options: SnapshotOptions): Promise<SnapshotOutcome> {
  const snapshot = path.join(options.dir, `${name}.pdf`);
  const diffDir = path.join(options.dir, DIFF_FOLDER, name);
  await fs.rm(diffDir, { recursive: true, force: true });
  const expected = await readIfThere(snapshot);

  if (options.update) {
    if (expected?.equals(actual)) return { name, snapshot, status: 'passed', identical: true, changedPages: [] };
    await writeFile(snapshot, actual);
    return { name, snapshot, status: expected ? 'updated' : 'recorded', changedPages: [] };
  }
  if (!expected) {
    const actualPdf = path.join(diffDir, 'actual.pdf');
    await writeFile(actualPdf, actual);
    return { name, snapshot, status: 'missing', changedPages: [], actualPdf };
  }

  const comparison = await comparePdfs(expected, actual, options);
  const outcome = { name, snapshot, identical: comparison.identical, pageCount: comparison.pageCount };
  if (comparison.changedPages.length === 0) return { ...outcome, status: 'passed', changedPages: [] };

  const actualPdf = path.join(diffDir, 'actual.pdf');
  await writeFile(actualPdf, actual);
  const changedPages: ChangedPage[] = [];
  for (const { images, ...page } of comparison.changedPages) {
    const files = {
      expected: path.join(diffDir, `page-${page.page}.expected.png`),
      actual: path.join(diffDir, `page-${page.page}.actual.png`),
      diff: path.join(diffDir, `page-${page.page}.diff.png`),
    };
    await Promise.all([writeFile(files.expected, images.expected), writeFile(files.actual, images.actual), writeFile(files.diff, images.diff)]);
    changedPages.push({ ...page, files });
  }
  return { ...outcome, status: 'failed', changedPages, actualPdf };
}

/** The diff folder goes once nothing is left in it: a passing run leaves no trace. */
export async function tidyDiffFolder(dir: string): Promise<void> {
  const diffRoot = path.join(dir, DIFF_FOLDER);
  const left = await fs.readdir(diffRoot).catch(() => undefined);
  if (left && left.length === 0) await fs.rm(diffRoot, { recursive: true, force: true });
}
