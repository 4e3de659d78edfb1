/**
 * Reads `--props <file|->` and `--html <file|->`: from a file, or from stdin for "-".
 * JSON errors name the file, line and column, with the offending line shown.
 */
import { parse, printParseErrorCode, type ParseError, type ParseErrorCode } from 'jsonc-parser';
import { ImprintError } from '../../core/errors.js';
import { readTextInput } from './read-text.js';

export { readBinaryInput, readTextInput } from './read-text.js';

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** The offending line with a caret under the column, as compilers show it. */
function codeFrame(text: string, line: number, column: number): string {
  const source = text.split('\n')[line - 1] ?? '';
  return `${line} | ${source}\n${' '.repeat(String(line).length)} | ${' '.repeat(column - 1)}^`;
}

export function parseJsonText(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // V8's message carries no position for most errors; jsonc-parser (strict settings) finds it.
    const errors: ParseError[] = [];
    parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    if (!first || text.trim() === '') {
      throw new ImprintError('INVALID_INPUT', `${name}:1:1 is not valid JSON: ${text.trim() === '' ? 'it is empty' : (error as Error).message}.`, { cause: error });
    }
    const { line, column } = lineAndColumn(text, first.offset);
    throw new ImprintError('INVALID_INPUT', `${name}:${line}:${column} is not valid JSON: ${describeParseError(first.error)}.`, {
      details: codeFrame(text, line, column),
      cause: error,
    });
  }
}

const PARSE_ERRORS: Partial<Record<ParseErrorCode, string>> = {
  1: 'invalid symbol', 2: 'invalid number', 3: 'expected a property name', 4: 'expected a value',
  5: 'expected ":"', 6: 'expected ","', 7: 'expected "}"', 8: 'expected "]"', 9: 'unexpected end of input',
  10: 'comments are not allowed in JSON', 11: 'unexpected end of comment', 12: 'unexpected end of string',
  13: 'unexpected end of number', 14: 'invalid unicode escape', 15: 'invalid escape character', 16: 'invalid character',
};

function describeParseError(code: ParseErrorCode): string {
  return PARSE_ERRORS[code] ?? printParseErrorCode(code);
}

export async function readJsonInput(source: string, what: string): Promise<unknown> {
  const text = await readTextInput(source, what);
  return parseJsonText(text, source === '-' ? 'standard input' : source);
}
