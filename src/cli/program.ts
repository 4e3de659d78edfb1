/** The commander program: global flags and one registration per command file. */
import { Command } from 'commander';
import { registerGenerate } from './commands/generate.js';
import { registerList } from './commands/list.js';
import { registerPublish } from './commands/publish.js';
import { registerRender } from './commands/render.js';
import { CliContext, type GlobalOptions } from './context.js';

export const VERSION = '0.1.0';

export function buildProgram(onContext: (context: CliContext) => void): Command {
  const program = new Command('imprint')
    .description('Turn React/TSX templates, raw HTML and web pages into PDFs.')
    .version(VERSION, '-V, --version')
    .option('--data-dir <dir>', 'the embedded store: published templates and issued PDFs (env IMPRINT_DATA_DIR)')
    .option('--embedded', 'render with the local engine (a local Chromium), not a remote API')
    .option('--browser <path>', 'the Chrome/Chromium executable to use (env IMPRINT_BROWSER)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .addHelpText(
      'after',
      [
        '',
        'Quick start:',
        '  $ imprint publish templates-example/invoice/Invoice.tsx',
        '  $ imprint render invoice --props templates-example/invoice/props.json -o invoice.pdf',
        '  $ imprint generate --html page.html -o page.pdf',
      ].join('\n'),
    );

  let context: CliContext | undefined;
  const getContext = () => {
    if (!context) {
      context = new CliContext(program.opts<GlobalOptions>());
      onContext(context);
    }
    return context;
  };
  for (const register of [registerPublish, registerList, registerRender, registerGenerate]) register(program, getContext);
  // Subcommands inherit exitOverride only when set before they are created; set it on each.
  for (const command of program.commands) command.exitOverride();
  return program;
}
