/**
 * The object store port: the bytes of template artifacts and issued PDFs, apart from the
 * records that name them (the store). Two adapters: files in the data folder (the default,
 * one machine) and an S3 bucket (several nodes share it). Keys are the store's own
 * (`artifacts/<sha256>`, `files/<random>.pdf`), never a caller's text.
 */
import type { Readable } from 'node:stream';
import type { SpooledPdf } from '../../spool/spooled-pdf.js';

export interface ObjectStore {
  /** Where the objects are, for messages and logs: a folder, or a bucket and its endpoint (never a secret). */
  readonly location: string;
  /**
   * Stores the bytes whole: a reader sees no object, or all of these bytes, never a prefix. A
   * spooled PDF (spool/spooled-pdf.ts) is streamed from its file, never read whole; it stays the
   * caller's to dispose of.
   */
  put(key: string, data: Buffer | SpooledPdf): Promise<void>;
  /** The bytes, or undefined when there is no such object. */
  get(key: string): Promise<Buffer | undefined>;
  /** The object's size in bytes, or undefined when there is no such object. */
  size(key: string): Promise<number | undefined>;
  /** The bytes as a stream, for answers that should not hold a whole file in memory. */
  stream(key: string): Promise<Readable>;
  /** Removes the object; one that is already gone is no error. */
  delete(key: string): Promise<void>;
  /** Resolves when the storage can be used; rejects with STORAGE_UNAVAILABLE (errors.ts) when not. */
  check(): Promise<void>;
  /** The file holding `key` on this machine, when objects are files (embedded mode links to it). */
  localPath?(key: string): string;
  close(): Promise<void>;
}

/** The folders (files adapter) or key prefixes (S3) of the two kinds of objects. */
export const ARTIFACTS_PREFIX = 'artifacts';
export const FILES_PREFIX = 'files';

export const artifactKey = (sha256: string) => `${ARTIFACTS_PREFIX}/${sha256}`;
export const issuedFileKey = (fileName: string) => `${FILES_PREFIX}/${fileName}`;
