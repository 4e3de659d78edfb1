/** Aligned columns on a terminal; tab-separated without a header when piped (cut/awk friendly). */
import chalk from 'chalk';

export function formatTable(header: string[], rows: string[][], piped: boolean): string {
  if (piped) return rows.map((row) => `${row.join('\t')}\n`).join('');
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
  return [chalk.bold(line(header)), ...rows.map(line)].join('\n') + '\n';
}
