/** `imprint schema <id|file>`: the JSON Schema of a template's props, as stored or as derived now. */
import type { Command } from 'commander';
import { ImprintError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { note } from '../ui/status.js';
import { isTemplateFile } from '../../backend/template-ref.js';

async function publishedSchema(ctx: CliContext, ref: string, version?: number): Promise<object | null> {
  const backend = ctx.backend();
  if (!backend.propsSchema) {
    throw new ImprintError('USAGE', `${backend.description} does not serve props schemas. Run \`imprint schema\` with --embedded, or on the template's file.`);
  }
  return backend.propsSchema(ref, version);
}

function parseVersion(value: string): number {
  const version = Number(value);
  if (!Number.isSafeInteger(version) || version < 1) throw new ImprintError('USAGE', `Invalid --template-version "${value}": use a whole number from 1.`);
  return version;
}

export function registerSchema(program: Command, context: () => CliContext) {
  program
    .command('schema')
    .description("print the JSON Schema of a template's props (stored at publish; derived from the types for a file)")
    .argument('<template>', 'a published template id or UUID, or a path to a .tsx file')
    .option('--template-version <n>', 'a published version (default: the latest)', parseVersion)
    .addHelpText('after', '\nExamples:\n  $ imprint schema invoice > invoice.schema.json\n  $ imprint schema ./templates/Invoice.tsx')
    .action(async (ref: string, flags: { templateVersion?: number }) => {
      let schema: object | null;
      if (isTemplateFile(ref)) {
        const { derivePropsSchema } = await import('../../core/schema/derive-props-schema.js');
        const derived = derivePropsSchema(ref);
        if (derived.kind === 'none') note(`${ref} has no props schema: ${derived.reason}.`);
        schema = derived.kind === 'schema' ? derived.schema : null;
      } else {
        schema = await publishedSchema(context(), ref, flags.templateVersion);
        if (schema === null) note(`Template "${ref}" was published without a props type: its props are not checked.`);
      }
      process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
    });
}
