/**
 * A batch's progress on stderr. On a terminal: an ora spinner whose text is the count, rate
 * and ETA, with failed rows printed above it as they happen. Elsewhere (pipes, CI): a line per
 * failed row and a progress line every tenth of the batch.
 */
import chalk from 'chalk';
import ora from 'ora';
import { crossedTenth, progressText } from '../batch/progress-text.js';
import type { BatchCounts, RowOutcome } from '../batch/run-batch.js';
import { interactive } from './status.js';

export interface BatchProgress {
  row(outcome: RowOutcome, counts: BatchCounts): void;
  stop(): void;
}

const failureLine = (outcome: RowOutcome) => `${chalk.red('✖')} row ${outcome.row}: ${outcome.error}\n`;

export function startBatchProgress(total: number, label: string, now: () => number): BatchProgress {
  const started = now();
  if (!interactive()) {
    process.stderr.write(`${label}: ${total} rows\n`);
    return {
      row(outcome, counts) {
        if (outcome.status === 'failed') process.stderr.write(failureLine(outcome));
        if (crossedTenth(counts.done, counts.total)) process.stderr.write(`${progressText(counts, now() - started)}\n`);
      },
      stop() {},
    };
  }
  const spinner = ora({ text: `${label}: 0/${total}`, stream: process.stderr }).start();
  return {
    row(outcome, counts) {
      if (outcome.status === 'failed') {
        spinner.clear();
        process.stderr.write(failureLine(outcome));
      }
      spinner.text = `${label}: ${progressText(counts, now() - started)}`;
    },
    stop() {
      spinner.stop();
    },
  };
}
