/**
 * When a print goes to a file rather than a Buffer (spooled-pdf.ts), and where. Core reads no
 * environment: the embedded backend and the service hand the policy in (backend/spool-setting.ts
 * reads IMPRINT_SPOOL_FROM); without one nothing is spooled (a library instance, `check`, `dev`).
 */
import os from 'node:os';

export interface SpoolPolicy {
  /** A print of at least this many bytes is written to a file as it arrives. */
  fromBytes: number;
  /** The folder spooled PDFs live in (a folder of their own each, made inside it). */
  dir: string;
}

/**
 * 8 MiB: an invoice is tens of KiB and a tagged 200-page report about 1.5 MiB, so the documents
 * of every day stay in memory; a statement of a thousand pages and more spools. Below it the
 * finishing holds a few copies of the file, some tens of MiB at most (bench/README.md, Big documents).
 */
export const DEFAULT_SPOOL_FROM_BYTES = 8 << 20;

export const defaultSpoolPolicy = (fromBytes = DEFAULT_SPOOL_FROM_BYTES, dir = os.tmpdir()): SpoolPolicy => ({ fromBytes, dir });
