/**
 * A PDF's accessibility as qpdf and poppler read it: its outline (qpdf --json-key=outlines), its
 * link annotations and structure elements (qpdf --json=2), its XMP (pdfinfo -meta).
 */
import { execFileSync } from 'node:child_process';
import { withFile } from './pdf.js';

export interface OutlineEntry {
  title: string;
  /** qpdf's destpageposfrom1: the page the entry opens. */
  page: number;
  kids: OutlineEntry[];
}

interface QpdfOutline {
  title: string;
  destpageposfrom1: number;
  kids: QpdfOutline[];
}

const entries = (list: QpdfOutline[]): OutlineEntry[] => list.map((item) => ({ title: item.title, page: item.destpageposfrom1, kids: entries(item.kids) }));

export function pdfOutline(pdf: Buffer): OutlineEntry[] {
  const json = withFile(pdf, (file) => JSON.parse(execFileSync('qpdf', ['--json', '--json-key=outlines', file], { maxBuffer: 64 * 1024 * 1024 }).toString()));
  return entries(json.outlines as QpdfOutline[]);
}

/** Every entry, parents before their kids, with its depth (0 at the top). */
export function flatOutline(list: OutlineEntry[], depth = 0): (OutlineEntry & { depth: number })[] {
  return list.flatMap((entry) => [{ ...entry, depth }, ...flatOutline(entry.kids, depth + 1)]);
}

/** qpdf's JSON strings: "u:text" or "b:<hex of UTF-16BE with BOM>". */
function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.startsWith('u:')) return value.slice(2);
  if (value.startsWith('b:')) {
    const bytes = Buffer.from(value.slice(2), 'hex');
    return bytes[0] === 0xfe && bytes[1] === 0xff ? bytes.subarray(2).swap16().toString('utf16le') : bytes.toString('latin1');
  }
  return undefined;
}

/** Every dictionary of the file (qpdf --json=2), in object number order. */
function dictionaries(pdf: Buffer): Record<string, unknown>[] {
  const json = withFile(pdf, (file) => JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=qpdf', file], { maxBuffer: 256 * 1024 * 1024 }).toString()));
  const objects = json.qpdf[1] as Record<string, { value?: unknown }>;
  return Object.values(objects)
    .map((object) => object?.value)
    .filter((value): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value));
}

/** The link annotations: where each goes and its /Contents (undefined when it has none). */
export function pdfLinks(pdf: Buffer): { target: string; contents: string | undefined }[] {
  return dictionaries(pdf)
    .filter((dict) => dict['/Subtype'] === '/Link')
    .map((dict) => ({ target: text((dict['/A'] as Record<string, unknown> | undefined)?.['/URI']) ?? String(dict['/Dest']), contents: text(dict['/Contents']) }));
}

/** The /Alt of every Figure structure element. */
export function pdfFigureAlts(pdf: Buffer): string[] {
  return dictionaries(pdf)
    .filter((dict) => dict['/S'] === '/Figure')
    .map((dict) => text(dict['/Alt']) ?? '');
}

/** The XMP packet (pdfinfo -meta). */
export function pdfXmp(pdf: Buffer): string {
  return withFile(pdf, (file) => execFileSync('pdfinfo', ['-meta', file]).toString());
}
