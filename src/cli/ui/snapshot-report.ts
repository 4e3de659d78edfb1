/** `imprint check --snapshot`'s lines: one per snapshot, and under a failed one what changed and where to look. */
import path from 'node:path';
import chalk from 'chalk';
import type { SnapshotOutcome } from '../../core/snapshot/snapshot-store.js';

const shown = (file: string) => path.relative(process.cwd(), file) || file;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The one line that sums a snapshot up. */
export function snapshotSummary(outcome: SnapshotOutcome): string {
  switch (outcome.status) {
    case 'passed':
      return outcome.identical ? 'same bytes' : 'same text and pixels';
    case 'recorded':
      return `recorded ${shown(outcome.snapshot)}`;
    case 'updated':
      return `updated ${shown(outcome.snapshot)}`;
    case 'missing':
      return `no snapshot at ${shown(outcome.snapshot)}: record it with --update`;
    case 'failed': {
      const count = outcome.pageCount && outcome.pageCount.expected !== outcome.pageCount.actual ? `, ${outcome.pageCount.expected} → ${outcome.pageCount.actual} pages` : '';
      const pages = outcome.changedPages.map((page) => {
        // A changed line is one removed and one added: counted once.
        const lines = Math.max(page.removedLines.length, page.addedLines.length);
        const what = [page.sizeChange ? `size ${page.sizeChange}` : '', lines ? `${plural(lines, 'line')} of text` : '', `${page.changedPercent.toFixed(2)}% of pixels`].filter(Boolean).join(', ');
        return `page ${page.page} (${what})`;
      });
      return `changed${count}: ${pages.join('; ')}`;
    }
  }
}

export function printSnapshotOutcome(outcome: SnapshotOutcome): void {
  const ok = outcome.status === 'passed' || outcome.status === 'recorded' || outcome.status === 'updated';
  const mark = ok ? (outcome.status === 'passed' ? chalk.green('✔') : chalk.yellow('●')) : chalk.red('✖');
  process.stdout.write(`  ${mark} snapshot ${outcome.name}: ${snapshotSummary(outcome)}\n`);
  for (const page of outcome.changedPages) {
    for (const line of page.removedLines) process.stdout.write(chalk.red(`      page ${page.page} - ${line}\n`));
    for (const line of page.addedLines) process.stdout.write(chalk.green(`      page ${page.page} + ${line}\n`));
    process.stdout.write(chalk.dim(`      expected ${shown(page.files.expected)}\n      actual   ${shown(page.files.actual)}\n      diff     ${shown(page.files.diff)}\n`));
  }
  if (outcome.actualPdf) process.stdout.write(chalk.dim(`      actual PDF ${shown(outcome.actualPdf)}\n`));
}
