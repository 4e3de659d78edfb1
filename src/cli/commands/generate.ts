/** `imprint generate --html ... --url ...`: raw HTML and/or a web page to PDF (api.md A2). */
import type { Command } from 'commander';
import { ImprintError } from '../../core/errors.js';
import { ALLOW_LOCAL_FLAG, checkRenderUrl, localUrlAccess } from '../../core/url-access.js';
import type { Backend } from '../../backend/backend.js';
import type { CliContext } from '../context.js';
import { deliverResult, prepareDestination } from '../deliver-result.js';
import { readTextInput } from '../io/read-input.js';
import { addOutputOptions } from '../options.js';
import { addDocumentOptions } from '../document-options.js';
import { addStampEncryptOptions } from '../stamp-encrypt-flags.js';
import { done, startStep } from '../ui/status.js';
import { addMergeOptions } from '../merge-options.js';
import { addImageOptions } from '../image-options.js';
import { requestOptions, type RequestFlags } from '../request-options.js';
import { defaultName, reportRefusal } from './generate-common.js';
import { generateOnRenderer, reachRenderer } from '../renderer/client/use-renderer.js';
import { addBatchOptions, checkBatchFlags, type BatchFlags } from './render-batch.js';
import { addAccessibilityOptions } from '../accessibility-flags.js';
import { addSignOptions, signerFromFlags, type SignFlags } from '../sign-options.js';
import { addTimeoutOption, useTimeoutFlag, type TimeoutFlags } from '../timeout-option.js';

type GenerateFlags = RequestFlags & BatchFlags & SignFlags & { html?: string; url?: string; allowLocal?: boolean };

// The batch runner loads only when --batch is given.
const loadGenerateBatch = () => import('./generate-batch.js');

/**
 * The page to open. Embedded: judged here by the core's rule (public addresses only, like the
 * service, unless the user passes --allow-local), before the browser starts. Remote: the
 * service fetches the page, so its operator's policy decides and the service answers.
 */
async function pageUrl(flags: GenerateFlags, backend: Backend): Promise<string | undefined> {
  if (backend.localBrowser) return flags.url === undefined ? undefined : checkRenderUrl(flags.url, localUrlAccess(flags.allowLocal === true));
  if (flags.allowLocal) {
    throw new ImprintError(
      'USAGE',
      `${ALLOW_LOCAL_FLAG} works in embedded mode only: in remote mode the service loads the page, and its operator decides which addresses it may reach (imprint serve --allow-host, --allow-private). Add --embedded to render on this machine.`,
    );
  }
  return flags.url;
}

export function registerGenerate(program: Command, context: () => CliContext) {
  const command = program
    .command('generate')
    .description('render raw HTML, a web page, or HTML injected into a web page, to PDF')
    .option('--html <file|->', 'HTML to render, from a file or "-" for stdin')
    .option('--url <url>', 'the page to render; with --html, the page whose document the HTML replaces (relative links resolve against it)')
    .option(
      '--allow-local',
      'let the page reach this machine and your private network: --url on a local server or file (file:///...), and whatever the HTML loads from them (images, styles, fetch); by default only public addresses, as the service does',
    );
  // In the order --help lists them.
  for (const add of [addAccessibilityOptions, addBatchOptions, addMergeOptions, addTimeoutOption, addImageOptions, addOutputOptions, addDocumentOptions, addStampEncryptOptions, addSignOptions]) add(command);
  command
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ imprint generate --html page.html -o page.pdf',
        '  $ echo "<h1>Hi</h1>" | imprint generate --html - > hi.pdf',
        '  $ imprint generate --url https://example.org --html snippet.html --size letter --orientation landscape -o out.pdf',
        '  $ imprint generate --url http://localhost:3000/report --allow-local -o report.pdf',
        '  $ imprint generate --html letter.html --append https://example.org/terms.pdf -o letter.pdf   # fetched like --url',
        '  $ imprint generate --url https://example.org/catalogue --optimize-images --image-dpi 200 -o catalogue.pdf',
        '  $ imprint generate --batch pages.jsonl --out-dir out/   # each row {"html": "..."} and/or {"url": "..."}; a job in remote mode',
      ].join('\n'),
    )
    .action(async (flags: GenerateFlags & TimeoutFlags) => {
      useTimeoutFlag(context(), flags, context().mode() === 'embedded');
      const sign = await signerFromFlags(flags, context().env);
      const batch = checkBatchFlags(flags);
      if (batch) {
        if (flags.html !== undefined || flags.url !== undefined) {
          throw new ImprintError('USAGE', '--html/--url and --batch cannot be combined: each row of the batch gives its own "html" and/or "url".');
        }
        return (await loadGenerateBatch()).generateBatch(context(), batch, await requestOptions(flags, context()), flags.allowLocal === true);
      }
      if (flags.html === undefined && flags.url === undefined) {
        throw new ImprintError('USAGE', 'Nothing to render: give --html <file|-> and/or --url <address>.');
      }
      const options = await requestOptions(flags, context());
      const backend = context().backend();
      // Before the browser starts: a refused url costs nothing.
      const url = await pageUrl(flags, backend);
      const destination = prepareDestination(flags.output, flags.format, defaultName(flags));
      // In embedded mode the page renders on the warm renderer when it is on (its own egress policy is keyed by --allow-local).
      const renderer = backend.localBrowser ? reachRenderer(context(), flags.allowLocal === true) : undefined;
      const refused = reportRefusal(new Set());
      if (backend.localBrowser) {
        context().egress.allowLocal(flags.allowLocal === true);
        context().egress.onPageDenied(refused);
        if (!renderer) backend.localBrowser.prewarm();
      }
      const html = flags.html === undefined ? undefined : await readTextInput(flags.html, 'HTML');
      const step = startStep(`Rendering ${url ?? flags.html}`);
      let result;
      try {
        // Undefined when the renderer is off or was lost: then this process renders it.
        result = (await generateOnRenderer(renderer, { html, url }, options, refused)) ?? (await context().backend().generate({ html, url }, options));
      } finally {
        step.stop();
      }
      if (sign) result = await sign(result, {}, options.encrypt);
      const written = await deliverResult(result, destination);
      if (written) done(written);
    });
}
