/** `imprint generate --html ... --url ...`: raw HTML and/or a web page to PDF (api.md A2). */
import type { Command } from 'commander';
import { ImprintError } from '../../core/errors.js';
import { isEmbeddedBackend } from '../backend/embedded.js';
import type { CliContext } from '../context.js';
import { deliverResult, prepareDestination } from '../deliver-result.js';
import { readTextInput } from '../io/read-input.js';
import { addOutputOptions, type OutputFlags } from '../options.js';
import { done, startStep } from '../ui/status.js';

function defaultName(flags: { html?: string; url?: string }): string {
  if (flags.html && flags.html !== '-') return flags.html.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || 'document';
  if (flags.url) {
    try {
      return new URL(flags.url).hostname || 'document';
    } catch {
      return 'document';
    }
  }
  return 'document';
}

function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ImprintError('USAGE', `Invalid --url "${url}": give an absolute address such as https://example.org/page.`);
  }
  if (!['http:', 'https:', 'file:'].includes(parsed.protocol)) {
    throw new ImprintError('USAGE', `Invalid --url "${url}": only http, https and file addresses can be rendered.`);
  }
  return parsed.href;
}

export function registerGenerate(program: Command, context: () => CliContext) {
  const command = program
    .command('generate')
    .description('render raw HTML, a web page, or HTML injected into a web page, to PDF')
    .option('--html <file|->', 'HTML to render, from a file or "-" for stdin')
    .option('--url <url>', 'the page to render; with --html, the page whose document the HTML replaces (relative links resolve against it)')
    .option('--tagged', 'a tagged (accessible) PDF: structure for screen readers, ~40% slower and larger');
  addOutputOptions(command)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ imprint generate --html page.html -o page.pdf',
        '  $ echo "<h1>Hi</h1>" | imprint generate --html - > hi.pdf',
        '  $ imprint generate --url https://example.org --html snippet.html --size letter --orientation landscape -o out.pdf',
      ].join('\n'),
    )
    .action(async (flags: OutputFlags & { html?: string; url?: string; tagged?: boolean }) => {
      if (flags.html === undefined && flags.url === undefined) {
        throw new ImprintError('USAGE', 'Nothing to render: give --html <file|-> and/or --url <address>.');
      }
      const url = flags.url === undefined ? undefined : checkUrl(flags.url);
      const destination = prepareDestination(flags.output, flags.format, defaultName(flags));
      const backend = context().backend();
      if (isEmbeddedBackend(backend)) backend.prewarm();
      const html = flags.html === undefined ? undefined : await readTextInput(flags.html, 'HTML');
      const step = startStep(`Rendering ${url ?? flags.html}`);
      const result = await context()
        .backend()
        .generate({ html, url }, { format: flags.format, size: flags.size, orientation: flags.orientation, tagged: flags.tagged })
        .finally(() => step.stop());
      const written = await deliverResult(result, destination);
      if (written) done(written);
    });
}
