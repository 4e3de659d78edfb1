/** `imprint publish <file.tsx>`: bundle a template and store it as a new version. */
import type { Command } from 'commander';
import { encodeArtifact } from '../../core/artifact.js';
import { chooseTemplateId } from '../../core/template-id.js';
import type { CliContext } from '../context.js';
import { reportSchema } from '../ui/schema-note.js';
import { compatNote } from '../ui/compat-note.js';
import { note, withStep } from '../ui/status.js';

export function registerPublish(program: Command, context: () => CliContext) {
  program
    .command('publish')
    .description('bundle a TSX template (its CSS, assets and npm dependencies) and publish it as a new version')
    .argument('<file>', 'the template, e.g. templates/Invoice.tsx')
    .option('--id <id>', 'template id (default: the component\'s static documentId, else the file name in kebab case)')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nExamples:\n  $ imprint publish templates/Invoice.tsx\n  $ imprint publish templates/Invoice.tsx --id invoice-2025 --json')
    .action(async (file: string, flags: { id?: string; json?: boolean }) => {
      const ctx = context();
      // The bundler and the TypeScript compiler are loaded by the commands that use them only.
      const [{ bundleTemplate }, { derivePropsSchema }] = await Promise.all([import('../../core/bundle/bundle-template.js'), import('../../core/schema/derive-props-schema.js')]);
      const bundled = await withStep(`Bundling ${file}`, () => bundleTemplate(file), (b) => `Bundled ${file} (${Math.round(encodeArtifact(b.artifact).length / 1024)} KiB)`);
      for (const line of compatNote(bundled.compat)) note(line);
      const id = chooseTemplateId({ explicitId: flags.id, source: bundled.source, file });
      // Read from the types, stored with the version: every render of it is checked before a page opens.
      const derived = derivePropsSchema(file);
      reportSchema(file, derived);
      const propsSchema = derived.kind === 'schema' ? derived.schema : undefined;
      const backend = ctx.backend();
      const published = await withStep(`Publishing ${id}`, () => backend.publish(id, bundled.artifact, { propsSchema }), () => undefined);
      process.stdout.write(flags.json ? `${JSON.stringify(published)}\n` : `Published ${published.id} version ${published.version}\n`);
    });
}
