/**
 * Output file names for batch rows (the CLI's `render --batch`, a job's `name`): `{{field}}` placeholders taken from the row's props
 * (dotted paths reach nested fields, `{{$row}}` is the row number), made safe as one file
 * name (no folders, no reserved characters or names) by filenamify, and ending in .pdf.
 */
import filenamify from 'filenamify';

export const DEFAULT_NAME_PATTERN = '{{$row}}.pdf';
const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;
const MAX_NAME_LENGTH = 200;

export type NameResult = { ok: true; name: string } | { ok: false; reason: string };

function lookup(props: unknown, path: string): unknown {
  let value: unknown = props;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Row numbers padded to the batch's size, so the files sort in row order. */
export const rowLabel = (row: number, total: number) => String(row).padStart(String(total).length, '0');

export function fileNameFor(pattern: string, props: unknown, row: number, total: number): NameResult {
  let missing: string | undefined;
  const filled = pattern.replace(PLACEHOLDER, (_, path: string) => {
    if (path === '$row') return rowLabel(row, total);
    const value = lookup(props, path);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
    missing ??= path;
    return '';
  });
  if (missing !== undefined) return { ok: false, reason: `the name pattern needs "${missing}", which this row has no text or number for` };
  const safe = filenamify(filled.trim(), { replacement: '_', maxLength: MAX_NAME_LENGTH });
  if (!safe || /^[._]*$/.test(safe.replace(/\.pdf$/i, ''))) return { ok: false, reason: `the name pattern gives an empty file name ("${filled}")` };
  return { ok: true, name: /\.pdf$/i.test(safe) ? safe : `${safe}.pdf` };
}
