/** `imprint einvoice <id|file>`: a template's e-invoice as XML alone (CII or UBL), nothing printed. */
import path from 'node:path';
import type { Command } from 'commander';
import { parseEInvoiceProfile, parseEInvoiceSyntax } from '../../core/einvoice/profiles.js';
import { parseProps } from '../../core/render-request.js';
import type { CliContext } from '../context.js';
import { readJsonInput } from '../io/read-input.js';
import { checkWritable, chooseDestination, deliver } from '../io/write-output.js';
import { bundleTemplateFile } from '../../backend/template-file.js';
import { isTemplateFile } from '../../backend/template-ref.js';
import { done, note, startStep, withStep } from '../ui/status.js';
import { guideFile } from '../../core/guides.js';
import { pinnedTemplate, versionOptions } from './render-version.js';

interface EInvoiceFlags {
  props?: string;
  syntax: string;
  einvoiceProfile: string;
  output?: string;
  templateVersion?: string;
}

export function registerEInvoice(program: Command, context: () => CliContext) {
  const command = program
    .command('einvoice')
    .description("write a template's e-invoice XML (EN 16931: Factur-X/ZUGFeRD CII, XRechnung, Peppol UBL) from its `einvoice` mapping, without a PDF")
    .argument('<template>', 'a published template id or UUID, or a path to a .tsx file')
    .option('-p, --props <file|->', 'props as a JSON object, from a file or "-" for stdin (default: the template\'s PreviewProps)')
    .option('--syntax <syntax>', 'cii (UN/CEFACT CII, what Factur-X embeds) or ubl (OASIS UBL 2.1: Peppol BIS Billing 3.0, or XRechnung UBL)', 'cii')
    .option('--einvoice-profile <profile>', 'minimum, basic-wl, basic, en16931, extended or xrechnung', 'en16931')
    .option('-o, --output <file|->', 'where to write the XML (default: stdout)');
  for (const option of versionOptions()) command.addOption(option);
  command
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ imprint einvoice invoice --props props.json -o factur-x.xml',
        '  $ imprint einvoice invoice --props props.json --syntax ubl --einvoice-profile xrechnung -o xrechnung.xml',
        '  $ imprint einvoice ./templates/Invoice.tsx --props props.json | imprint check --einvoice -',
        '',
        'The CII this writes is byte for byte the factur-x.xml that `imprint render --einvoice factur-x` embeds',
        `for the same props and profile. See ${guideFile('einvoice')} for the EInvoice model and its business terms.`,
      ].join('\n'),
    )
    .action(async (given: string, flags: EInvoiceFlags) => {
      const ctx = context();
      const request = { syntax: parseEInvoiceSyntax(flags.syntax), profile: parseEInvoiceProfile(flags.einvoiceProfile) };
      const asFile = isTemplateFile(given);
      const { ref, version } = pinnedTemplate(given, asFile, flags.templateVersion);
      const destination = chooseDestination({ output: flags.output, binary: false, stdoutIsTTY: Boolean(process.stdout.isTTY), defaultFileName: 'einvoice.xml' });
      checkWritable(destination);
      const props = flags.props === undefined ? undefined : parseProps(await readJsonInput(flags.props, 'props'));
      let written: { xml: string; usedPreviewProps: boolean };
      if (asFile) {
        const embedded = ctx.embedded();
        embedded.localBrowser.prewarm();
        const artifact = await withStep(`Bundling ${ref}`, () => bundleTemplateFile(ctx.templateCache(), ref), () => undefined);
        const step = startStep(`Mapping ${ref} to ${request.syntax.toUpperCase()} (${request.profile})`);
        written = await embedded.einvoiceArtifact(artifact, props, request).finally(() => step.stop());
      } else {
        const step = startStep(`Mapping ${ref} to ${request.syntax.toUpperCase()} (${request.profile})`);
        written = await ctx.backend().einvoice(ref, props, request, version).finally(() => step.stop());
      }
      if (written.usedPreviewProps) note(`No --props given: used the template's PreviewProps.`);
      await deliver(destination, written.xml);
      if (destination.kind === 'file') done(`Wrote ${path.relative(process.cwd(), destination.path) || destination.path}`);
    });
}
