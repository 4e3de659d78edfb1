/**
 * A PDF's logical structure as qpdf reads it (`qpdf --json`, version 2), without object numbers:
 * the structure tree (tags) and the outline (bookmarks), each reference to a page written as
 * its page number and every other reference resolved. Two PDFs whose objects were renumbered
 * (pdf-lib rewrites them all) compare equal here exactly when their tags and bookmarks do.
 */
import { execFileSync } from 'node:child_process';
import { withFile } from './pdf.js';

/** Back-links and sibling links that would only repeat (or loop over) what the walk already shows. */
const SKIPPED = new Set(['/P', '/Parent', '/Prev', '/Last']);

const REF = /^\d+ \d+ R$/;

export interface PdfStructure {
  structTree: unknown;
  outline: unknown;
  /** How many structure elements the tree has (a test shows it is not empty). */
  elements: number;
  /** How many outline entries. */
  outlineEntries: number;
}

/** `password`: an encrypted PDF's (qpdf decrypts it to read it). */
export function pdfStructure(pdf: Buffer | string, password?: string): PdfStructure {
  const json = withFile(pdf, (file) =>
    JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=qpdf', '--json-key=pages', ...(password ? [`--password=${password}`] : []), file], { maxBuffer: 256 * 1024 * 1024, timeout: 60_000 }).toString()),
  );
  const objects = json.qpdf[1] as Record<string, { value?: unknown; stream?: { dict: unknown } }>;
  const pageNumbers = new Map<string, number>((json.pages as { object: string }[]).map((page, index) => [page.object, index + 1]));
  let elements = 0;
  let outlineEntries = 0;
  const walk = (value: unknown, path: ReadonlySet<string>): unknown => {
    if (typeof value === 'string' && REF.test(value)) {
      const page = pageNumbers.get(value);
      if (page !== undefined) return `page ${page}`;
      if (path.has(value)) return 'cycle';
      const object = objects[`obj:${value}`];
      return walk(object?.value ?? object?.stream?.dict ?? null, new Set([...path, value]));
    }
    if (Array.isArray(value)) return value.map((item) => walk(item, path));
    if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (record['/S'] !== undefined && record['/K'] !== undefined) elements += 1;
      if (record['/Title'] !== undefined) outlineEntries += 1;
      return Object.fromEntries(Object.keys(record).sort().filter((key) => !SKIPPED.has(key)).map((key) => [key, walk(record[key], path)]));
    }
    return value;
  };
  const trailer = objects.trailer!.value as Record<string, string>;
  const catalog = objects[`obj:${trailer['/Root']}`]!.value as Record<string, unknown>;
  const structTree = catalog['/StructTreeRoot'] === undefined ? null : walk(catalog['/StructTreeRoot'], new Set());
  const outline = catalog['/Outlines'] === undefined ? null : walk(catalog['/Outlines'], new Set());
  return { structTree, outline, elements, outlineEntries };
}

/** How many times each page's content draws inside `/Artifact BMC ... EMC` (qpdf --qdf uncompresses the streams). */
export function artifactMarks(pdf: Buffer | string, password?: string): number {
  const text = withFile(pdf, (file) => execFileSync('qpdf', ['--qdf', '--object-streams=disable', ...(password ? [`--password=${password}`, '--decrypt'] : []), file, '-'], { maxBuffer: 256 * 1024 * 1024, timeout: 60_000 }).toString('latin1'));
  return (text.match(/\/Artifact BMC/g) ?? []).length;
}
