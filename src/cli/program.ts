/** The commander program: global flags and one registration per command file. */
import { Command } from 'commander';
import { registerBrowser } from './commands/browser.js';
import { registerCache } from './commands/cache.js';
import { registerCheck } from './commands/check.js';
import { registerDev } from './commands/dev.js';
import { registerDoctor } from './commands/doctor.js';
import { registerEInvoice } from './commands/einvoice.js';
import { registerGenerate } from './commands/generate.js';
import { registerInit } from './commands/init.js';
import { registerJobs } from './commands/jobs.js';
import { registerKey } from './commands/key.js';
import { registerList } from './commands/list.js';
import { registerLogin } from './commands/login.js';
import { registerLogout } from './commands/logout.js';
import { registerMerge } from './commands/merge.js';
import { registerPublish } from './commands/publish.js';
import { registerRender } from './commands/render.js';
import { registerRenderer } from './commands/renderer.js';
import { registerRollback } from './commands/rollback.js';
import { registerSchema } from './commands/schema.js';
import { registerServe } from './commands/serve.js';
import { registerTeam } from './commands/team.js';
import { registerVersions } from './commands/versions.js';
import { registerWhoami } from './commands/whoami.js';
import type { CliRuntime } from './cli-runtime.js';
import { CliContext, type GlobalOptions } from './context.js';
import { processEnvironment } from '../backend/environment.js';
import { imprintVersion } from '../core/version.js';
import { guidesFolder, guidesUrl } from '../core/guides.js';

export function buildProgram(onContext: (context: CliContext) => void, runtime: CliRuntime): Command {
  const program = new Command('imprint')
    .description('Turn React/TSX templates, raw HTML and web pages into PDFs.')
    .version(imprintVersion(), '-V, --version')
    .option('--data-dir <dir>', 'the embedded store: published templates and issued PDFs (env IMPRINT_DATA_DIR)')
    .option('--embedded', 'render with the local engine (a local Chromium), not a remote API')
    .option('--remote', 'use the Imprint API (from `imprint login`, --api-url/--api-key or IMPRINT_API_URL/IMPRINT_API_KEY); default when one is configured (env IMPRINT_MODE=remote|embedded)')
    .option('--api-url <url>', 'the Imprint API to use (env IMPRINT_API_URL)')
    .option('--api-key <key>', 'the API key to use (env IMPRINT_API_KEY)')
    .option('--browser <path>', 'the Chrome/Chromium executable to use (env IMPRINT_BROWSER)')
    .option('--no-renderer', 'render in this process instead of on the warm background renderer (env IMPRINT_RENDERER=off); see `imprint renderer --help`')
    .showHelpAfterError('(run with --help for usage)')
    // Every command's --help lists the global flags too (--data-dir, --api-url, --api-key...):
    // `imprint login --help` is where an operator looks for --api-url.
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .addHelpText(
      'after',
      [
        '',
        'Quick start:',
        '  $ imprint init demo && cd demo',
        '  $ imprint render templates/Invoice.tsx --props templates/Invoice.props.json -o invoice.pdf',
        '  $ imprint generate --html page.html -o page.pdf',
        '',
        `Guides: ${guidesFolder()} (on the web: ${guidesUrl()})`,
      ].join('\n'),
    );

  let context: CliContext | undefined;
  const getContext = () => {
    if (!context) {
      context = new CliContext(program.opts<GlobalOptions>(), runtime, processEnvironment());
      onContext(context);
    }
    return context;
  };
  const registrations = [registerPublish, registerList, registerRender, registerGenerate, registerLogin, registerLogout, registerWhoami, registerServe, registerTeam, registerKey];
  registrations.push(registerInit, registerSchema, registerCheck, registerDev, registerVersions, registerRollback, registerRenderer);
  registrations.push(registerJobs, registerEInvoice);
  registrations.push(registerMerge);
  registrations.push(registerDoctor, registerBrowser, registerCache);
  for (const register of registrations) register(program, getContext);
  // Subcommands inherit exitOverride only when set before they are created; set it on each, nested ones too.
  const override = (command: Command): void => command.commands.forEach((sub) => override(sub.exitOverride()));
  override(program);
  return program;
}
