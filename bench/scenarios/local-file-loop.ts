/**
 * `--only local-file` (issue 40): a shell loop of `imprint render templates/Invoice.tsx` with the
 * warm renderer up, against the same loop of the published id, in one run: the calls alternate
 * (file, id, file, id...) so a busy machine's load falls on both alike. Per-call medians after
 * one warm-up call each; the target is file/id <= 1.3x.
 *
 * The profile: the renderer is started with IMPRINT_RENDERER_TIMING=1, so each nail call logs
 * its phases (cli/renderer/process/nail-timing.ts); their medians are printed per kind. For a
 * file, the `slot` phase holds the template cache's check (a stat of each input the last build
 * read) and the props check before the render asks the pool for a page.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseNailTiming } from '../../src/cli/renderer/process/nail-timing.js';
import { BIN, INVOICE, invoiceProps } from '../lib/invoice.js';
import { rendererStatus } from '../lib/renderer-status.js';
import { percentile } from '../lib/stats.js';
import { checkUntagged, tagging } from '../lib/tagging.js';

export interface LocalFileFigures {
  calls: number;
  fileMs: number;
  idMs: number;
  /** Median ms of each nail phase, per kind of call. */
  phases: { file: Record<string, number>; id: Record<string, number> };
  served: { file: number; id: number };
  /** Calls the renderer took whole (the thin path); the others loaded the whole CLI. */
  nailed: number;
}

export function localFileLoop(dataDir: string, work: string, calls: number): LocalFileFigures {
  const runDir = path.join(work, 'local-file-run');
  const env = { ...process.env, CI: '1', IMPRINT_DATA_DIR: dataDir, IMPRINT_RUNTIME_DIR: runDir, IMPRINT_RENDERER: 'on', IMPRINT_RENDERER_IDLE: '10m', IMPRINT_RENDERER_TIMING: '1' };
  const propsFile = path.join(work, 'local-file-props.json');
  fs.writeFileSync(propsFile, JSON.stringify(invoiceProps(1)));
  const call = (ref: string) => {
    const started = performance.now();
    const run = spawnSync(process.execPath, [BIN, 'render', ref, '--props', propsFile, '-o', path.join(work, 'local-file.pdf'), ...tagging.cliArgs], { env, encoding: 'utf8', timeout: 120_000 });
    if (run.status !== 0) throw new Error(`render ${ref} failed (exit ${run.status}):\n${run.stderr}`);
    return performance.now() - started;
  };
  try {
    spawnSync(process.execPath, [BIN, 'renderer', 'start'], { env, stdio: 'ignore', timeout: 120_000 });
    // One warm-up each: the file's first build, the id's first page.
    call(INVOICE);
    call('invoice');
    const logFile = fs.readdirSync(runDir).find((name) => name.endsWith('.log'));
    const logBefore = logFile ? fs.readFileSync(path.join(runDir, logFile), 'utf8').split('\n').length : 0;
    const before = rendererStatus(env);
    const file: number[] = [];
    const id: number[] = [];
    for (let i = 0; i < calls; i++) {
      file.push(call(INVOICE));
      id.push(call('invoice'));
    }
    const after = rendererStatus(env);
    checkUntagged(path.join(work, 'local-file.pdf'), 'the local file loop');
    // The log's nail lines alternate as the calls did: file first.
    const lines = logFile ? fs.readFileSync(path.join(runDir, logFile), 'utf8').split('\n').slice(logBefore - 1) : [];
    const timings = lines.map(parseNailTiming).filter((timing): timing is Record<string, number> => timing !== undefined);
    const medianOf = (picked: Record<string, number>[]) =>
      Object.fromEntries(Object.keys(picked[0] ?? {}).map((phase) => [phase, percentile(picked.map((timing) => timing[phase]), 50)]));
    return {
      calls,
      fileMs: percentile(file, 50),
      idMs: percentile(id, 50),
      phases: { file: medianOf(timings.filter((_, i) => i % 2 === 0)), id: medianOf(timings.filter((_, i) => i % 2 === 1)) },
      served: { file: (after.templateFiles?.reused ?? 0) - (before.templateFiles?.reused ?? 0), id: after.served - before.served },
      nailed: after.nailed - before.nailed,
    };
  } finally {
    spawnSync(process.execPath, [BIN, 'renderer', 'stop', '--all'], { env, stdio: 'ignore', timeout: 60_000 });
  }
}

export function describeLocalFile(figures: LocalFileFigures, check: (ok: boolean) => string): string[] {
  const ratio = figures.fileMs / figures.idMs;
  const phases = (kind: 'file' | 'id') =>
    Object.entries(figures.phases[kind])
      .map(([phase, ms]) => `${phase} ${ms.toFixed(1)}`)
      .join(', ');
  return [
    `local file loop (${figures.calls} calls each, alternating, after one warm-up each; the renderer warm)`,
    `  render templates-example/invoice/Invoice.tsx: ${figures.fileMs.toFixed(0)} ms per call (median)`,
    `  render invoice (published):                  ${figures.idMs.toFixed(0)} ms per call (median)`,
    `  file / id <= 1.3 x: ${ratio.toFixed(2)} x  ${check(ratio <= 1.3)}`,
    `  renderer: ${figures.served.id} calls served, ${figures.served.file} file renders from the template cache (none rebuilt), ${figures.nailed} of ${2 * figures.calls} calls taken whole (the thin path)`,
    `  inside the renderer, median ms per phase: file: ${phases('file')}`,
    `                                            id:   ${phases('id')}`,
  ];
}
