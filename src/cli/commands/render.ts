/** `imprint render <id|file>`: a published template, or a local file without publishing, to PDF. */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { bundleTemplate } from '../../core/bundle/bundle-template.js';
import { parseProps } from '../../core/render-request.js';
import { kebabCaseFromFileName } from '../../core/template-id.js';
import type { CliContext } from '../context.js';
import { deliverResult, prepareDestination } from '../deliver-result.js';
import { readJsonInput } from '../io/read-input.js';
import { addOutputOptions, type OutputFlags } from '../options.js';
import { done, note, startStep, withStep } from '../ui/status.js';

/** A path (has a slash, or names an existing script file) renders without publishing. */
export function isTemplateFile(ref: string): boolean {
  return /[\\/]/.test(ref) || (/\.(tsx|jsx|ts|js|mjs)$/.test(ref) && fs.existsSync(ref));
}

export function registerRender(program: Command, context: () => CliContext) {
  const command = program
    .command('render')
    .description('render a published template (or a local .tsx file, without publishing) to PDF')
    .argument('<template>', 'a published template id or UUID, or a path to a .tsx file')
    .option('-p, --props <file|->', 'props as a JSON object, from a file or "-" for stdin (default: the template\'s PreviewProps)');
  addOutputOptions(command)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ imprint render invoice --props props.json -o invoice.pdf',
        '  $ imprint render invoice --props - --format base64 < props.json   # {"data": "..."}',
        '  $ imprint render invoice --props props.json --format json          # {"url": "file:///..."}',
        '  $ imprint render ./templates/Invoice.tsx --size letter --orientation landscape -o x.pdf',
      ].join('\n'),
    )
    .action(async (ref: string, flags: OutputFlags & { props?: string }) => {
      const ctx = context();
      const asFile = isTemplateFile(ref);
      const name = asFile ? kebabCaseFromFileName(ref) : ref;
      const destination = prepareDestination(flags.output, flags.format, name);
      const props = flags.props === undefined ? undefined : parseProps(await readJsonInput(flags.props, 'props'));
      const options = { format: flags.format, size: flags.size, orientation: flags.orientation };

      let rendering;
      if (asFile) {
        const bundled = await withStep(`Bundling ${ref}`, () => bundleTemplate(path.resolve(ref)), () => undefined);
        const step = startStep(`Rendering ${ref}`);
        rendering = await ctx.embedded().renderArtifact(bundled.artifact, props, options).finally(() => step.stop());
      } else {
        const step = startStep(`Rendering ${ref}`);
        rendering = await ctx.backend().render(ref, props, options).finally(() => step.stop());
      }
      if (rendering.usedPreviewProps) note(`No --props given: rendered with the template's PreviewProps.`);
      const written = await deliverResult(rendering.result, destination);
      if (written) done(written);
    });
}
