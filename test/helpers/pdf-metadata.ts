/** A PDF's Info fields and flags as pdfinfo prints them, dates in ISO 8601 (UTC). */
import { execFileSync } from 'node:child_process';
import { withFile } from './pdf.js';

/** "Title" -> "Statement ST-0001", "CreationDate" -> "2023-11-14T22:13:20Z", ... */
export function pdfInfoFields(pdf: Buffer): Record<string, string> {
  return withFile(pdf, (file) => {
    const text = execFileSync('pdfinfo', ['-isodates', file], { env: { ...process.env, TZ: 'UTC' } }).toString();
    return Object.fromEntries(
      text
        .split('\n')
        .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
        .filter((match): match is RegExpExecArray => match !== null)
        .map((match) => [match[1], match[2]]),
    );
  });
}

/** The catalog's language (/Lang), which pdfinfo does not print. */
export function pdfLanguage(pdf: Buffer): string | undefined {
  return /\/Lang\s*\(([^)]*)\)/.exec(pdf.toString('latin1'))?.[1];
}

/** The structure tree of a tagged PDF as text (pdfinfo -struct-text). */
export function pdfStructure(pdf: Buffer): string {
  return withFile(pdf, (file) => execFileSync('pdfinfo', ['-struct-text', file]).toString());
}
