/** The PDF's object graph as qpdf sees it (`qpdf --json`, version 2): the catalog and what it points to. */
import { execFileSync } from 'node:child_process';
import { withFile } from './pdf.js';

type Value = unknown;

export interface PdfObjects {
  trailer: Record<string, Value>;
  catalog: Record<string, Value>;
  /** An indirect reference ("12 0 R") resolved to its value (a stream's dictionary). */
  resolve(ref: Value): Value;
}

/** `password`: an encrypted file's (qpdf shows its strings decrypted). */
export function pdfObjects(pdf: Buffer, password?: string): PdfObjects {
  const json = withFile(pdf, (file) => JSON.parse(execFileSync('qpdf', [...(password === undefined ? [] : [`--password=${password}`]), '--json=2', '--json-key=qpdf', file], { maxBuffer: 64 * 1024 * 1024 }).toString()));
  const objects = json.qpdf[1] as Record<string, { value?: Value; stream?: { dict: Value } }>;
  const resolve = (ref: Value): Value => {
    if (typeof ref === 'string' && / \d+ R$/.test(ref)) {
      const object = objects[`obj:${ref}`];
      return object?.value ?? object?.stream?.dict;
    }
    return ref;
  };
  const trailer = objects.trailer!.value as Record<string, Value>;
  return { trailer, catalog: resolve(trailer['/Root']) as Record<string, Value>, resolve };
}
