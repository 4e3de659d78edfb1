/**
 * Where a render's output goes, and writing it without ever leaving half a file: PDFs to a
 * file (atomically: a temp file beside it, then a rename) or to stdout when piped; never
 * binary to a terminal. The destination is checked before any rendering starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { streamFileAtomically, writeFileAtomicSync } from '../../core/atomic-file.js';
import { SpooledPdf } from '../../core/spool/spooled-pdf.js';
import { ImprintError } from '../../core/errors.js';

export type Destination = { kind: 'stdout' } | { kind: 'file'; path: string };

export function chooseDestination(options: { output?: string; binary: boolean; stdoutIsTTY: boolean; defaultFileName: string }): Destination {
  if (options.output === '-') {
    if (options.binary && options.stdoutIsTTY) {
      throw new ImprintError('USAGE', 'Refusing to write a PDF to the terminal. Pipe it (`| lpr`, `> out.pdf`) or write a file with -o <file>.');
    }
    return { kind: 'stdout' };
  }
  if (options.output) return { kind: 'file', path: path.resolve(options.output) };
  if (!options.binary || !options.stdoutIsTTY) return { kind: 'stdout' };
  return { kind: 'file', path: path.resolve(options.defaultFileName) };
}

/** Fails early, before a browser starts, when the output could not be written. */
export function checkWritable(destination: Destination): void {
  if (destination.kind !== 'file') return;
  const dir = path.dirname(destination.path);
  const problem = (() => {
    const stat = fs.statSync(destination.path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) return 'it is a folder';
    if (!fs.existsSync(dir)) return `the folder ${dir} does not exist`;
    try {
      fs.accessSync(dir, fs.constants.W_OK);
      if (stat) fs.accessSync(destination.path, fs.constants.W_OK);
    } catch {
      return 'permission denied';
    }
    return undefined;
  })();
  if (problem) throw new ImprintError('OUTPUT_FAILED', `Cannot write ${destination.path}: ${problem}. Choose another path with -o.`);
}

/** `file` written whole or not at all (core/atomic-file.ts); a failure is the CLI's OUTPUT_FAILED, naming the file. */
export function writeFileAtomically(file: string, data: Buffer | string): void {
  try {
    writeFileAtomicSync(file, data);
  } catch (error) {
    throw new ImprintError('OUTPUT_FAILED', `Cannot write ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** Resolves false when the reader closed the pipe (EPIPE, `| head`): its choice, not our failure, and nothing more need be written. */
async function writeToStdout(data: Buffer | string): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    process.stdout.write(data, (error) => {
      if (!error) resolve(true);
      else if ((error as NodeJS.ErrnoException).code === 'EPIPE') resolve(false);
      else reject(error);
    });
  });
}

export async function deliver(destination: Destination, data: Buffer | string | SpooledPdf): Promise<void> {
  if (data instanceof SpooledPdf) return deliverSpooled(destination, data);
  if (destination.kind === 'file') writeFileAtomically(destination.path, data);
  else await writeToStdout(data);
}

/**
 * A spooled PDF (core/spool/spooled-pdf.ts) copied from its file in chunks, never read whole:
 * into a temp file beside the output, renamed over it once complete, or to stdout chunk by
 * chunk, each write awaited so a slow reader holds the copy back rather than Node's memory.
 */
async function deliverSpooled(destination: Destination, pdf: SpooledPdf): Promise<void> {
  if (destination.kind === 'stdout') {
    for await (const chunk of pdf.stream()) if (!(await writeToStdout(chunk as Buffer))) return;
    return;
  }
  try {
    await streamFileAtomically(destination.path, (into) => pipeline(pdf.stream(), into, { end: false }));
  } catch (error) {
    throw new ImprintError('OUTPUT_FAILED', `Cannot write ${destination.path}: ${(error as Error).message}`, { cause: error });
  }
}
