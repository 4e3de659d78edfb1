// `npm run typecheck`: every part of Imprint under its own config (tsconfig.base.json says
// which parts see which globals), one `tsc --noEmit -p` after another; fails if any fails.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TYPECHECK_CONFIGS = ['tsconfig.json', 'src/web/tsconfig.json', 'tsconfig.page.json', 'test/tsconfig.json'];

const failed = [];
for (const config of TYPECHECK_CONFIGS) {
  const ran = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', config], { cwd: ROOT, stdio: 'inherit', timeout: 10 * 60_000 });
  if (ran.status !== 0) failed.push(config);
}
if (failed.length > 0) {
  console.error(`Type errors under ${failed.join(', ')}.`);
  process.exitCode = 1;
} else console.log(`Types check under ${TYPECHECK_CONFIGS.join(', ')}.`);
