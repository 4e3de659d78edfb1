/** `imprint renderer status --json` of the renderer `env`'s settings reach: how many calls it served, and how many it took whole (the thin path, docs/renderer.md). */
import { spawnSync } from 'node:child_process';
import type { RendererStatus } from '../../src/cli/renderer/wire.js';
import { BIN } from './invoice.js';

export function rendererStatus(env: NodeJS.ProcessEnv): RendererStatus {
  const run = spawnSync(process.execPath, [BIN, 'renderer', 'status', '--json'], { env, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`imprint renderer status failed (exit ${run.status}):\n${run.stderr}`);
  return JSON.parse(run.stdout) as RendererStatus;
}
