/**
 * `imprint doctor`: checks what a render needs (Node, a browser, fonts, poppler for snapshots,
 * the data folder and its SQLite driver, the warm renderer, and the service when logged in)
 * and says how to fix what is missing. Exits 1 when something a render needs is missing.
 */
import type { Command } from 'commander';
import { ImprintError } from '../../core/errors.js';
import { imprintVersion } from '../../core/version.js';
import type { CliContext } from '../context.js';
import { checkBrowser, checkDataFolder, checkFonts, checkNode, checkPoppler, checkService, checkSqlite, platformLine, rendererResult, type CheckResult } from '../doctor/checks.js';
import { rendererStatus } from '../renderer/client/renderer-client.js';
import { rendererEnabled } from '../renderer/renderer-settings.js';
import { rendererTarget } from '../renderer/client/use-renderer.js';
import { formatDoctorReport } from '../ui/doctor-report.js';

async function runChecks(ctx: CliContext): Promise<CheckResult[]> {
  const connection = ctx.connection();
  const remote = ctx.mode() === 'remote';
  // In remote mode the service renders; a local browser is still used by local template files.
  const [browser, fonts, poppler, service] = await Promise.all([
    checkBrowser(ctx.browserSettings, !remote),
    checkFonts(),
    checkPoppler(),
    checkService(connection, () => ctx.remote().whoami()),
  ]);
  const enabled = rendererEnabled(ctx.env, ctx.options.renderer);
  const renderer = rendererResult(enabled, enabled ? await rendererStatus(rendererTarget(ctx, false).spec) : undefined);
  return [checkNode(), browser, fonts, poppler, checkDataFolder(ctx.dataDir), checkSqlite(), renderer, service];
}

export function registerDoctor(program: Command, context: () => CliContext) {
  program
    .command('doctor')
    .description('check what rendering needs (Node, a browser, fonts, the data folder, the service) and say how to fix what is missing')
    .option('--json', 'print {"ok", "version", "checks": [{id, title, status, detail, fix?, code?}]} as JSON')
    .addHelpText('after', '\nExits 1 when something a render needs is missing (a browser, the data folder, the SQLite driver, a logged-in service).\n\nExamples:\n  $ imprint doctor\n  $ imprint doctor --json | jq \'.checks[] | select(.status == "fail")\'')
    .action(async (flags: { json?: boolean }) => {
      const ctx = context();
      const checks = await runChecks(ctx);
      const failed = checks.filter((check) => check.status === 'fail');
      if (flags.json) process.stdout.write(`${JSON.stringify({ ok: failed.length === 0, version: imprintVersion(), platform: platformLine(), checks })}\n`);
      else process.stdout.write(formatDoctorReport(`imprint ${imprintVersion()} on ${platformLine()}`, checks));
      if (failed.length > 0) {
        throw new ImprintError(failed[0].code ?? 'INTERNAL', `${failed.length} of ${checks.length} checks failed: ${failed.map((check) => check.title).join(', ')}. See the fixes above.`);
      }
    });
}
