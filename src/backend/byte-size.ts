/** Sizes as operators write them: "100MiB", "512 KiB", "10MB", or plain bytes. */
import { ImprintError } from '../core/errors.js';

// SI units are powers of 1000 and IEC units powers of 1024, as their names say.
const UNIT_BYTES: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };
const SIZE = /^(\d+(?:\.\d+)?)\s*([a-z]+)?$/i;

export function parseByteSize(text: string, what: string): number {
  const match = SIZE.exec(text.trim());
  const unit = UNIT_BYTES[(match?.[2] ?? 'b').toLowerCase()];
  const bytes = match && unit ? Math.floor(Number(match[1]) * unit) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new ImprintError('USAGE', `Invalid ${what} "${text}": use a positive size such as 100MiB, 512KiB or 10MB (KiB/MiB/GiB are 1024-based, KB/MB/GB 1000-based).`);
  }
  return bytes;
}
