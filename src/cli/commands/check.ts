/** `imprint check [files...]`: build and render each template's PreviewProps, for CI before publishing. */
import type { Command } from 'commander';
import { ImprintError } from '../../core/errors.js';
import { DEFAULT_RENDER_TIMEOUT_MS } from '../../core/render/deadline.js';
import type { CliContext } from '../context.js';
import { resolveTemplateFiles } from '../io/template-files.js';
import { printCheckResult, printCheckSummary } from '../ui/check-report.js';

export function registerCheck(program: Command, context: () => CliContext) {
  program
    .command('check')
    .description('build each template and render its PreviewProps; fail on build or render errors, console errors, failed requests or fonts, and PreviewProps that do not match the props type')
    .argument('[files...]', 'template files or folders of them (default: templates/)')
    .addHelpText('after', '\nExamples:\n  $ imprint check\n  $ imprint check templates/Invoice.tsx templates/Report.tsx')
    .action(async (args: string[]) => {
      const files = resolveTemplateFiles(args, 'templates');
      const [{ checkTemplate }, { createBrowserProvider }] = await Promise.all([import('../../core/check/check-template.js'), import('../../core/render/browser-provider.js')]);
      const settings = context().browserSettings;
      const browsers = createBrowserProvider({ search: settings.search, runningAsRoot: settings.runningAsRoot, env: settings.env });
      let failed = 0;
      try {
        for (const file of files) {
          const started = performance.now();
          const result = await checkTemplate(file, { browser: () => browsers.browser(), timeoutMs: DEFAULT_RENDER_TIMEOUT_MS });
          printCheckResult(result, performance.now() - started);
          if (result.problems.length > 0) failed++;
        }
      } finally {
        await browsers.close();
      }
      printCheckSummary(files.length - failed, failed);
      if (failed > 0) {
        // The report above names each problem; the error only sets the exit code and says so.
        throw new ImprintError('INVALID_INPUT', `${failed} of ${files.length} ${files.length === 1 ? 'template' : 'templates'} failed the check.`);
      }
    });
}
