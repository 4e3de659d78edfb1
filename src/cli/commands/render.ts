/** `imprint render <id|file>`: a published template, or a local file without publishing, to PDF. */
import type { Command } from 'commander';
import { parseProps } from '../../core/render-request.js';
import { kebabCaseFromFileName } from '../../core/template-id.js';
import { renderTemplateFile } from '../../backend/template-file.js';
import type { CliContext } from '../context.js';
import { deliverResult, prepareDestination } from '../deliver-result.js';
import { readJsonInput } from '../io/read-input.js';
import { isTemplateFile } from '../../backend/template-ref.js';
import { renderRoute } from '../renderer/client/route.js';
import { reachRenderer, renderOnRenderer } from '../renderer/client/use-renderer.js';
import { addOutputOptions, type OutputFlags } from '../options.js';
import { addDocumentOptions, addEInvoiceOptions, documentOptions, type DocumentFlags } from '../document-options.js';
import { done, note, startStep, withStep } from '../ui/status.js';
import { addMergeOptions, mergeOptions, type MergeFlags } from '../merge-options.js';
import { addImageOptions, imageOptions, type ImageFlags } from '../image-options.js';
import { addBatchOptions, checkBatchFlags, renderBatch, type BatchFlags } from './render-batch.js';
import { pinnedTemplate, versionOptions } from './render-version.js';

/** A path (has a slash, or names an existing script file) renders without publishing. */
export function registerRender(program: Command, context: () => CliContext) {
  const command = program
    .command('render')
    .description('render a published template (or a local .tsx file, without publishing) to PDF')
    .argument('<template>', 'a published template id or UUID, or a path to a .tsx file')
    .option('-p, --props <file|->', 'props as a JSON object, from a file or "-" for stdin (default: the template\'s PreviewProps)')
    .option('--tagged', 'a tagged (accessible) PDF: structure for screen readers, ~40% slower and larger');
  addBatchOptions(command);
  for (const option of versionOptions()) command.addOption(option);
  addMergeOptions(command);
  addImageOptions(command);
  addEInvoiceOptions(addDocumentOptions(addOutputOptions(command)))
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ imprint render invoice --props props.json -o invoice.pdf',
        '  $ imprint render invoice --props - --format base64 < props.json   # {"data": "..."}',
        '  $ imprint render invoice --props props.json --format json          # {"url": "file:///..."}',
        '  $ imprint render ./templates/Invoice.tsx --size letter --orientation landscape -o x.pdf',
        "  $ imprint render invoice --batch rows.jsonl --out-dir out/ --name '{{invoiceNo}}.pdf' --summary out/summary.json",
        '  $ imprint render invoice --batch - --out-dir out/ --skip-existing < rows.csv',
        '  $ imprint render invoice --batch rows.jsonl --out-dir out/ --detach   # remote mode: one job; prints its id (see `imprint jobs --help`)',
        '  $ imprint render invoice@3 --props props.json   # version 3 (also: --version 3); see `imprint versions invoice`',
        '  $ imprint render invoice --props props.json --einvoice factur-x -o invoice.pdf   # PDF/A-3b with factur-x.xml (EN 16931)',
        '  $ imprint render invoice --props props.json --einvoice zugferd --einvoice-profile xrechnung -o invoice.pdf',
        '  $ imprint render invoice --props props.json --pdfa 2b -o archive.pdf',
        '  $ imprint render invoice --props props.json --prepend cover.pdf --append terms.pdf -o pack.pdf   # one bookmark per part',
        '  $ imprint render report --props props.json --optimize-images -o report.pdf   # photos at 150 dpi as JPEG: smaller files',
      ].join('\n'),
    )
    .action(async (given: string, flags: OutputFlags & DocumentFlags & BatchFlags & MergeFlags & ImageFlags & { props?: string; tagged?: boolean; templateVersion?: string }) => {
      const ctx = context();
      const asFile = isTemplateFile(given);
      const { ref, version } = pinnedTemplate(given, asFile, flags.templateVersion);
      const options = { format: flags.format, size: flags.size, orientation: flags.orientation, tagged: flags.tagged, ...documentOptions(flags, ctx.sourceDateEpoch), ...(await mergeOptions(flags)), ...imageOptions(flags) };
      const batch = checkBatchFlags(flags);
      if (batch) return renderBatch(ctx, ref, asFile, options, { ...batch, version });
      const name = asFile ? kebabCaseFromFileName(ref) : ref;
      const destination = prepareDestination(flags.output, flags.format, name);
      const backend = asFile ? ctx.embedded() : ctx.backend();
      // The route (renderer/client/route.ts): a published template in embedded mode on the warm renderer, when it is on.
      const route = renderRoute({ asFile, embedded: backend.localBrowser !== undefined }, () => reachRenderer(ctx));
      const renderer = route.route === 'renderer' ? route.renderer : undefined;
      if (!renderer) backend.localBrowser?.prewarm();
      const props = flags.props === undefined ? undefined : parseProps(await readJsonInput(flags.props, 'props'));

      let rendering;
      if (asFile) {
        rendering = await renderTemplateFile(ctx.embedded(), ref, props, options, (step, work) => withStep(`${step} ${ref}`, work, () => undefined));
      } else {
        const step = startStep(`Rendering ${ref}`);
        try {
          // Undefined when the renderer is off or was lost: then this process renders it.
          rendering = (await renderOnRenderer(renderer, ref, props, options, version)) ?? (await ctx.backend().render(ref, props, options, version));
        } finally {
          step.stop();
        }
      }
      if (rendering.usedPreviewProps) note(`No --props given: rendered with the template's PreviewProps.`);
      const written = await deliverResult(rendering.result, destination);
      if (written) done(written);
    });
}
