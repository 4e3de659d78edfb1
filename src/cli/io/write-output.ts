/**
 * Where a render's output goes, and writing it without ever leaving half a file: PDFs to a
 * file (atomically: a temp file beside it, then a rename) or to stdout when piped; never
 * binary to a terminal. The destination is checked before any rendering starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../../core/atomic-file.js';
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

async function writeToStdout(data: Buffer | string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    // EPIPE: the reader closed the pipe (`| head`), which is its choice, not our failure.
    process.stdout.write(data, (error) => (error && (error as NodeJS.ErrnoException).code !== 'EPIPE' ? reject(error) : resolve()));
  });
}

export async function deliver(destination: Destination, data: Buffer | string): Promise<void> {
  if (destination.kind === 'file') writeFileAtomically(destination.path, data);
  else await writeToStdout(data);
}
