/**
 * Reads `--props <file|->` and `--html <file|->` as bytes or text: from a file, or from stdin
 * for "-". Its own file, without the JSON parser's error reporting (read-input.ts), so the thin
 * path to the warm renderer (renderer/client/fast-render.ts) loads only this.
 */
import { ImprintError } from '../../core/errors.js';
import { readInputFile } from '../../core/read-file.js';

async function readStdinBytes(): Promise<Buffer> {
  if (process.stdin.isTTY) {
    throw new ImprintError('USAGE', '"-" reads from standard input, but standard input is a terminal. Pipe the data in, e.g. `imprint render invoice --props - < props.json`.');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const readStdin = async (): Promise<string> => (await readStdinBytes()).toString('utf8');

export async function readTextInput(source: string, what: string): Promise<string> {
  if (source === '-') return readStdin();
  return (await readBinaryInput(source, what)).toString('utf8');
}

/** A file's bytes (a PDF), or stdin's for "-". */
export async function readBinaryInput(source: string, what: string): Promise<Buffer> {
  return source === '-' ? readStdinBytes() : readInputFile(source, what);
}
