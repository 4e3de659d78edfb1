/**
 * Reads `--props <file|->` and `--html <file|->`: from a file, or from stdin for "-".
 * JSON errors name the file, line and column, with the offending lines shown.
 */
import fs from 'node:fs';
import parseJson, { JSONError } from 'parse-json';
import { ImprintError } from '../../core/errors.js';

export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new ImprintError('USAGE', '"-" reads from standard input, but standard input is a terminal. Pipe the data in, e.g. `imprint render invoice --props - < props.json`.');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function readTextInput(source: string, what: string): Promise<string> {
  if (source === '-') return readStdin();
  try {
    return fs.readFileSync(source, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new ImprintError(code === 'ENOENT' ? 'NOT_FOUND' : 'INVALID_INPUT', `Cannot read the ${what} file ${source}: ${reason}.`, { cause: error });
  }
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

export function parseJsonText(text: string, name: string): unknown {
  try {
    return parseJson(text, name);
  } catch (error) {
    if (!(error instanceof JSONError)) throw error;
    const reason = error.message.split('\n')[0].replace(/ in JSON at position \d+.*$/, '').replace(/ in .*$/, '');
    const position = /position (\d+)/.exec(error.message);
    const where = position ? lineAndColumn(text, Number(position[1])) : text.trim() === '' ? { line: 1, column: 1 } : undefined;
    const at = where ? `:${where.line}:${where.column}` : '';
    throw new ImprintError('INVALID_INPUT', `${name}${at} is not valid JSON: ${text.trim() === '' ? 'it is empty' : reason}.`, {
      details: error.rawCodeFrame,
      cause: error,
    });
  }
}

export async function readJsonInput(source: string, what: string): Promise<unknown> {
  const text = await readTextInput(source, what);
  return parseJsonText(text, source === '-' ? 'standard input' : source);
}
