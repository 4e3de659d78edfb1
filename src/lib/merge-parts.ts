/**
 * The library's `prepend`/`append` parts as the request's: bytes become the base64 a request
 * carries (core/pdf/merge/parts.ts judges the result like the API's). Anything else passes as
 * it is, so a wrong value gets the API's own message (`Invalid prepend[0]...`).
 */
import type { MergePart } from './types.js';

export function wirePartsOf(parts: unknown): unknown {
  if (!Array.isArray(parts)) return parts;
  return parts.map((part: MergePart | unknown) => {
    if (part === null || typeof part !== 'object' || !('pdf' in part) || !(part.pdf instanceof Uint8Array)) return part;
    return { ...part, pdf: Buffer.from(part.pdf.buffer, part.pdf.byteOffset, part.pdf.byteLength).toString('base64') };
  });
}
