/**
 * The one place jobs read an issued PDF back (the archive): how issued files are kept is the
 * store's business, and may change (files in the data folder, an object store).
 */
import type { Readable } from 'node:stream';
import type { Store } from '../store/index.js';

export interface RowPdf {
  bytes: number;
  open(): Promise<Readable>;
}

/** The row's PDF while its download link lives; undefined once it has expired or is gone. */
export async function openRowPdf(store: Store, token: string): Promise<RowPdf | undefined> {
  const file = await store.openIssuedFile(token);
  if (!file) return undefined;
  return { bytes: file.bytes, open: () => file.open() };
}
