/**
 * Runs a batch in this process: every row rendered by `render` (the embedded engine's; a batch
 * against a service is a job instead, jobs/submit-batch-job.ts), `concurrency` rows at once, each written atomically to its own file. A
 * row that fails is recorded with its reason and the rest go on; failures worth another try
 * (a busy or restarting service) are retried per the retry policy.
 */
import { pdfByteLength, type PdfBytes } from '../../core/spool/spooled-pdf.js';
import { deliverResult } from '../deliver-result.js';
import fs from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import { fileNameFor } from './name-pattern.js';
import type { BatchRow } from './read-rows.js';
import { decideRetry, isBusy, isFatal, type RetryPolicy } from './retry.js';

export type RowStatus = 'ok' | 'failed' | 'skipped';

export interface RowOutcome {
  row: number;
  status: RowStatus;
  /** The output file, relative to the output folder. */
  file?: string;
  bytes?: number;
  /** Render tries made (0 for rows never sent). */
  attempts: number;
  /** Of those, the tries the service answered busy (429: its queue was full); present when there were any. */
  busy?: number;
  ms?: number;
  error?: string;
}

export interface BatchCounts {
  total: number;
  done: number;
  ok: number;
  failed: number;
  skipped: number;
}

export interface BatchSummary extends Omit<BatchCounts, 'done'> {
  outDir: string;
  /** Set when a failure that no row could escape (no such template...) stopped the batch. */
  stoppedBy?: string;
  durationMs: number;
  rows: RowOutcome[];
}

export interface BatchPlan {
  rows: BatchRow[];
  outDir: string;
  namePattern: string;
  concurrency: number;
  skipExisting: boolean;
  retry: RetryPolicy;
}

export interface BatchDeps {
  /** A row's PDF; a spooled one (core/spool/spooled-pdf.ts) is copied into place and removed. */
  render(props: Record<string, unknown>): Promise<PdfBytes>;
  /** Told of every finished row, in completion order. */
  onRow(outcome: RowOutcome, counts: BatchCounts): void;
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Each row's file name, or why it has none; a name two rows share fails the later row. */
export function assignNames(plan: Pick<BatchPlan, 'rows' | 'namePattern'>): Map<number, { name?: string; problem?: string }> {
  const names = new Map<number, { name?: string; problem?: string }>();
  const owner = new Map<string, number>();
  for (const row of plan.rows) {
    if (row.problem) {
      names.set(row.row, { problem: row.problem });
      continue;
    }
    const named = fileNameFor(plan.namePattern, row.props, row.row, plan.rows.length);
    if (!named.ok) {
      names.set(row.row, { problem: named.reason });
      continue;
    }
    const key = named.name.toLowerCase(); // one file on case-insensitive disks
    const first = owner.get(key);
    if (first !== undefined) {
      names.set(row.row, { problem: `its file name ${named.name} is already row ${first}'s` });
      continue;
    }
    owner.set(key, row.row);
    names.set(row.row, { name: named.name });
  }
  return names;
}

export async function runBatch(plan: BatchPlan, deps: BatchDeps): Promise<BatchSummary> {
  const started = deps.now();
  const names = assignNames(plan);
  const counts: BatchCounts = { total: plan.rows.length, done: 0, ok: 0, failed: 0, skipped: 0 };
  const outcomes: RowOutcome[] = [];
  let stoppedBy: string | undefined;

  const finish = (outcome: RowOutcome) => {
    outcomes.push(outcome);
    counts.done++;
    counts[outcome.status]++;
    deps.onRow(outcome, { ...counts });
  };

  async function renderRow(row: BatchRow, name: string): Promise<RowOutcome> {
    const rowStarted = deps.now();
    // Busy answers and other failures are retried within separate bounds (retry.ts).
    let busy = 0;
    let failures = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        const pdf = await deps.render(row.props!);
        await deliverResult({ format: 'pdf', pdf }, { kind: 'file', path: path.join(plan.outDir, name) });
        return { row: row.row, status: 'ok', file: name, bytes: pdfByteLength(pdf), attempts: attempt, ...(busy ? { busy } : {}), ms: Math.round(deps.now() - rowStarted) };
      } catch (error) {
        if (isFatal(error)) stoppedBy ??= messageOf(error);
        const wasBusy = isBusy(error);
        if (wasBusy) busy++;
        else failures++;
        const decision = stoppedBy === undefined ? decideRetry(error, wasBusy ? busy : failures, plan.retry, deps.random()) : { retry: false as const };
        if (!decision.retry) return { row: row.row, status: 'failed', file: name, attempts: attempt, ...(busy ? { busy } : {}), error: messageOf(error) };
        await deps.sleep(decision.delayMs);
        // A failure no row escapes may have stopped the batch while this row waited.
        if (stoppedBy !== undefined) {
          return { row: row.row, status: 'failed', file: name, attempts: attempt, ...(busy ? { busy } : {}), error: `${messageOf(error)} Not tried again: the batch stopped (${stoppedBy})` };
        }
      }
    }
  }

  const limit = pLimit(plan.concurrency);
  await Promise.all(
    plan.rows.map((row) => {
      const { name, problem } = names.get(row.row)!;
      if (problem !== undefined || name === undefined) {
        finish({ row: row.row, status: 'failed', attempts: 0, error: problem });
        return undefined;
      }
      if (plan.skipExisting && fs.existsSync(path.join(plan.outDir, name))) {
        finish({ row: row.row, status: 'skipped', file: name, attempts: 0 });
        return undefined;
      }
      return limit(() =>
        stoppedBy === undefined ? renderRow(row, name) : { row: row.row, status: 'failed' as const, file: name, attempts: 0, error: `not rendered: the batch stopped (${stoppedBy})` },
      ).then(finish);
    }),
  );

  outcomes.sort((a, b) => a.row - b.row);
  const { total, ok, failed, skipped } = counts;
  return { total, ok, failed, skipped, outDir: plan.outDir, stoppedBy, durationMs: Math.round(deps.now() - started), rows: outcomes };
}
