/**
 * A batch's rows, from JSON Lines, a JSON array or CSV. Each row is its props, or the reason
 * it cannot be one (a bad JSON line, a CSV record with the wrong number of fields): such a row
 * fails on its own and the others still render. Only input that has no rows to speak of (a
 * JSON array that does not parse, a CSV header that does not) stops the batch before it starts.
 *
 * CSV: the header names the props; a dotted header nests ("customer.name" -> {customer: {name}}).
 * Values stay text: CSV has no types, and "00123" must not become 123.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { ImprintError } from '../../core/errors.js';
import { parseJsonText } from '../io/read-input.js';

export type BatchFormat = 'jsonl' | 'json' | 'csv';

export interface BatchRow {
  /** 1-based, in input order. */
  row: number;
  /** Where the row starts in the input, for messages. */
  line: number;
  props?: Record<string, unknown>;
  /** Set when the row cannot be rendered as it stands. */
  problem?: string;
}

/** The format from the file name; from the first character for stdin or another name. */
export function detectFormat(source: string, text: string): BatchFormat {
  if (/\.(jsonl|ndjson)$/i.test(source)) return 'jsonl';
  if (/\.csv$/i.test(source)) return 'csv';
  if (/\.json$/i.test(source)) return 'json';
  const first = text.trimStart()[0];
  if (first === '[') return 'json';
  if (first === '{') return 'jsonl';
  return 'csv';
}

const describeType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function asRow(row: number, line: number, value: unknown): BatchRow {
  return isObject(value) ? { row, line, props: value } : { row, line, problem: `props must be a JSON object, got ${describeType(value)}` };
}

function readJsonLines(text: string): BatchRow[] {
  const rows: BatchRow[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const row = rows.length + 1;
    try {
      rows.push(asRow(row, index + 1, JSON.parse(line)));
    } catch (error) {
      rows.push({ row, line: index + 1, problem: `line ${index + 1} is not valid JSON: ${(error as Error).message}` });
    }
  });
  return rows;
}

function readJsonArray(text: string, name: string): BatchRow[] {
  const value = parseJsonText(text, name);
  if (!Array.isArray(value)) {
    throw new ImprintError('INVALID_INPUT', `${name} is not a JSON array of props objects (got ${describeType(value)}). For one object per line, name the file .jsonl.`);
  }
  return value.map((item, index) => asRow(index + 1, 0, item));
}

/** {"customer.name": "A"} -> {customer: {name: "A"}}; throws on headers that clash ("a" and "a.b"). */
export function nestColumns(headers: string[]): (values: string[]) => Record<string, unknown> {
  const paths = headers.map((header) => header.split('.').map((part) => part.trim()));
  const seen = new Map<string, 'leaf' | 'branch'>();
  for (const [index, path] of paths.entries()) {
    if (path.some((part) => part === '')) throw new ImprintError('INVALID_INPUT', `CSV column ${index + 1} has an empty name or path part ("${headers[index]}").`);
    for (let depth = 1; depth <= path.length; depth++) {
      const key = path.slice(0, depth).join('.');
      const kind = depth === path.length ? 'leaf' : 'branch';
      const before = seen.get(key);
      if (before && (before === 'leaf' || kind === 'leaf')) throw new ImprintError('INVALID_INPUT', `CSV columns clash: "${key}" is both a value and a group of values (or appears twice).`);
      seen.set(key, kind);
    }
  }
  return (values) => {
    const props: Record<string, unknown> = {};
    paths.forEach((path, column) => {
      let target = props;
      for (const part of path.slice(0, -1)) target = (target[part] ??= {}) as Record<string, unknown>;
      target[path[path.length - 1]] = values[column];
    });
    return props;
  };
}

function readCsv(text: string, name: string): BatchRow[] {
  let records: { info: { lines: number }; record: string[] }[];
  try {
    records = parseCsv(text, { bom: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as typeof records;
  } catch (error) {
    throw new ImprintError('INVALID_INPUT', `${name} is not valid CSV: ${(error as Error).message}`, { cause: error });
  }
  const [header, ...body] = records;
  if (!header) return [];
  const build = nestColumns(header.record);
  return body.map(({ info, record }, index) =>
    record.length === header.record.length
      ? { row: index + 1, line: info.lines, props: build(record) }
      : { row: index + 1, line: info.lines, problem: `line ${info.lines} has ${record.length} fields, the header has ${header.record.length}` },
  );
}

export function readRows(text: string, source: string, format: BatchFormat = detectFormat(source, text)): BatchRow[] {
  const name = source === '-' ? 'standard input' : source;
  switch (format) {
    case 'jsonl':
      return readJsonLines(text);
    case 'json':
      return readJsonArray(text, name);
    case 'csv':
      return readCsv(text, name);
  }
}
