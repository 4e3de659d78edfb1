/** `imprint render <id|file>`: a published template, or a local file without publishing, to PDF. */
import path from 'node:path';
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
import { addOutputOptions } from '../options.js';
import { addDocumentOptions, addEInvoiceOptions } from '../document-options.js';
import { addAccessibilityOptions } from '../accessibility-flags.js';
import { addFormOptions } from '../form-options.js';
import { done, note, withStep } from '../ui/status.js';
import { addMergeOptions } from '../merge-options.js';
import { addStampEncryptOptions, STAMP_ENCRYPT_EXAMPLES } from '../stamp-encrypt-flags.js';
import { addImageOptions } from '../image-options.js';
import { requestOptions, type RequestFlags } from '../request-options.js';
import { addBatchOptions, checkBatchFlags, renderBatch, type BatchFlags } from './render-batch.js';
import { addTimeoutOption, useTimeoutFlag, type TimeoutFlags } from '../timeout-option.js';
import { pinnedTemplate, versionOptions } from './render-version.js';
import { addSignOptions, signerFromFlags, type SignFlags } from '../sign-options.js';

/** A path (has a slash, or names an existing script file) renders without publishing. */
export function registerRender(program: Command, context: () => CliContext) {
  const command = program
    .command('render')
    .description('render a published template (or a local .tsx file, without publishing) to PDF')
    .argument('<template>', 'a published template id or UUID, or a path to a .tsx file')
    .option('-p, --props <file|->', 'props as a JSON object, from a file or "-" for stdin (default: the template\'s PreviewProps)');
  addAccessibilityOptions(command);
  addBatchOptions(command);
  addTimeoutOption(command);
  for (const option of versionOptions()) command.addOption(option);
  // In the order --help lists them.
  for (const add of [addMergeOptions, addImageOptions, addOutputOptions, addDocumentOptions, addEInvoiceOptions, addFormOptions, addStampEncryptOptions, addSignOptions]) add(command);
  command
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
        '  $ imprint render invoice --props props.json --pdfua --lang en-GB -o accessible.pdf   # PDF/UA-1 (tagged, bookmarks by default)',
        '  $ imprint render invoice --props props.json --prepend cover.pdf --append terms.pdf -o pack.pdf   # one bookmark per part',
        '  $ imprint render order-form --props props.json -o form.pdf   # <Field>s become fillable fields; --flatten prints their values instead',
        '  $ imprint render ./templates/Report.tsx --props big.json --timeout 5m -o report.pdf   # a long document',
        '  $ IMPRINT_SIGN_PASSWORD=... imprint render contract --props p.json --sign me.p12 --tsa http://timestamp.digicert.com -o signed.pdf',
        '  $ imprint render report --props props.json --optimize-images -o report.pdf   # photos at 150 dpi as JPEG: smaller files',
        ...STAMP_ENCRYPT_EXAMPLES,
        '',
        'A .tsx file is bundled once and kept in the data folder\'s template-cache/ under a hash of',
        'everything it is built from; an edit to it, its imports, CSS, static files or packages rebuilds it.'
      ].join('\n'),
    )
    .action(async (given: string, flags: RequestFlags & BatchFlags & TimeoutFlags & SignFlags & { props?: string; templateVersion?: string }) => {
      const ctx = context();
      const asFile = isTemplateFile(given);
      useTimeoutFlag(ctx, flags, asFile || ctx.mode() === 'embedded');
      const { ref, version } = pinnedTemplate(given, asFile, flags.templateVersion);
      const options = await requestOptions(flags, ctx);
      const sign = await signerFromFlags(flags, ctx.env);
      const batch = checkBatchFlags(flags);
      if (batch) return renderBatch(ctx, ref, asFile, options, { ...batch, version });
      const name = asFile ? kebabCaseFromFileName(ref) : ref;
      const destination = prepareDestination(flags.output, flags.format, name);
      const backend = asFile ? ctx.embedded() : ctx.backend();
      // The route (renderer/client/route.ts): a template file, or a published template in embedded mode, on the warm renderer when it is on.
      const route = renderRoute({ embedded: backend.localBrowser !== undefined }, () => reachRenderer(ctx));
      const renderer = route.route === 'renderer' ? route.renderer : undefined;
      if (!renderer) backend.localBrowser?.prewarm();
      const props = flags.props === undefined ? undefined : parseProps(await readJsonInput(flags.props, 'props'));

      let rendering;
      const file = asFile ? path.resolve(ref) : undefined;
      // Undefined when the renderer is off or was lost: then this process renders it.
      const onRenderer = renderer ? await withStep(`Rendering ${ref}`, () => renderOnRenderer(renderer, { ref, file, props, options, version }), () => undefined) : undefined;
      if (onRenderer) rendering = onRenderer;
      else if (file) {
        rendering = await renderTemplateFile(ctx.embedded(), ctx.templateCache(), file, props, options, (step, work) => withStep(`${step} ${ref}`, work, () => undefined), ref);
      } else {
        rendering = await withStep(`Rendering ${ref}`, () => ctx.backend().render(ref, props, options, version), () => undefined);
      }
      if (rendering.usedPreviewProps) note(`No --props given: rendered with the template's PreviewProps.`);
      const result = sign ? await sign(rendering.result, { template: name, version }, options.encrypt) : rendering.result;
      const written = await deliverResult(result, destination);
      if (written) done(written);
    });
}
