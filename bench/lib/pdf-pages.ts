/** A PDF's page count, from poppler's pdfinfo (installed by scripts/setup.sh). */
import { execFileSync } from 'node:child_process';

export function pageCount(file: string): number {
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const pages = /^Pages:\s+(\d+)/m.exec(info)?.[1];
  if (!pages) throw new Error(`pdfinfo did not report a page count for ${file}`);
  return Number(pages);
}
