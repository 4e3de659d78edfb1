/**
 * A job's progress on stderr while the CLI waits on it. On a terminal: an ora spinner whose
 * text is the service's count, the downloads, rate and ETA, with failed rows printed above it.
 * Elsewhere (pipes, CI): a line per failed row and a progress line each tenth of the job.
 */
import chalk from 'chalk';
import ora from 'ora';
import type { JobDetails } from '../../client/job-types.js';
import type { RowOutcome } from '../batch/run-batch.js';
import type { FollowCounts } from '../jobs/follow-job.js';
import { jobProgressText, tenthOf } from '../jobs/job-progress-text.js';
import { interactive } from './status.js';

export interface JobProgress {
  status(job: JobDetails, counts: FollowCounts): void;
  row(outcome: RowOutcome, counts: FollowCounts): void;
  stop(): void;
}

const failureLine = (outcome: RowOutcome) => `${chalk.red('✖')} row ${outcome.row}: ${outcome.error}\n`;

export function startJobProgress(label: string, now: () => number): JobProgress {
  const started = now();
  const line = (job: JobDetails, counts: FollowCounts) => `${label} (${job.status}): ${jobProgressText(counts, now() - started)}`;
  if (!interactive()) {
    let printedTenth = -1;
    return {
      status(job, counts) {
        const tenth = tenthOf(counts);
        if (tenth === printedTenth) return;
        printedTenth = tenth;
        process.stderr.write(`${line(job, counts)}\n`);
      },
      row(outcome) {
        if (outcome.status === 'failed') process.stderr.write(failureLine(outcome));
      },
      stop() {},
    };
  }
  const spinner = ora({ text: `${label}: waiting for the service`, stream: process.stderr }).start();
  let last: JobDetails | undefined;
  return {
    status(job, counts) {
      last = job;
      spinner.text = line(job, counts);
    },
    row(outcome, counts) {
      if (outcome.status === 'failed') {
        spinner.clear();
        process.stderr.write(failureLine(outcome));
      }
      if (last) spinner.text = line(last, counts);
    },
    stop() {
      spinner.stop();
    },
  };
}
