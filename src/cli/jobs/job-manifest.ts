/**
 * The note a batch by job leaves in its output folder (`.imprint-job-<id>.json`): which input
 * row and file name each of the job's rows stands for. `imprint jobs wait <id> --out-dir` reads
 * it, so the files come out under the names the submitting run gave them, whatever the
 * service would have called them; without it (another folder, a job submitted elsewhere) the
 * service's names are used.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ImprintError } from '../../core/errors.js';
import { writeFileAtomically } from '../io/write-output.js';

export interface JobManifest {
  job: string;
  /** What was rendered: a template id, or "generate". */
  source: string;
  /** Job row i+1's input row and file name. */
  rows: { row: number; name: string }[];
}

export const manifestPath = (outDir: string, jobId: string) => path.join(outDir, `.imprint-job-${jobId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);

export function writeManifest(outDir: string, manifest: JobManifest): void {
  writeFileAtomically(manifestPath(outDir, manifest.job), `${JSON.stringify(manifest)}\n`);
}

/** The folder's note for this job; undefined when there is none or it is not one of ours. */
export function readManifest(outDir: string, jobId: string): JobManifest | undefined {
  let text: string;
  try {
    text = fs.readFileSync(manifestPath(outDir, jobId), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let parsed: Partial<JobManifest>;
  try {
    parsed = JSON.parse(text) as Partial<JobManifest>;
  } catch (error) {
    const file = manifestPath(outDir, jobId);
    throw new ImprintError('INVALID_INPUT', `${file} is not valid JSON (${(error as Error).message}). Delete it to name the files as the service does.`, { cause: error });
  }
  if (parsed.job !== jobId || !Array.isArray(parsed.rows)) return undefined;
  return parsed as JobManifest;
}
