/** `imprint publish <file.tsx>`: bundle a template and store it as a new version. */
import type { Command } from 'commander';
import { encodeArtifact } from '../../core/artifact.js';
import { ImprintError } from '../../core/errors.js';
import { chooseTemplateId } from '../../core/template-id.js';
import { readTemplateSource } from '../../backend/template-file.js';
import type { CliContext } from '../context.js';
import { runTypecheck, typeErrorLines } from '../typecheck-step.js';
import { reportSchema } from '../ui/schema-note.js';
import { compatNote } from '../ui/compat-note.js';
import { note, warn, withStep } from '../ui/status.js';

interface PublishFlags {
  id?: string;
  json?: boolean;
  /** Refuse a template with type errors, or one that could not be type-checked. */
  strict?: boolean;
  /** False with --no-typecheck. */
  typecheck: boolean;
}

/**
 * Type errors are told, and publishing goes on: the bundle does not depend on types, and a
 * team may publish a fix with a type error elsewhere in the file. --strict makes them refusals.
 */
async function typecheckBeforePublish(file: string, strict: boolean): Promise<void> {
  const [types] = (await runTypecheck([file])).templates;
  if (types.skipped) {
    if (strict) throw new ImprintError('INVALID_INPUT', `${file} was not published: --strict publishes only a template that type-checks, and it could not be type-checked (${types.skipped}).`);
    return;
  }
  if (types.errors.length === 0) return;
  const count = `${types.errors.length} type ${types.errors.length === 1 ? 'error' : 'errors'}`;
  const lines = typeErrorLines(types.errors).join('\n');
  if (strict) throw new ImprintError('INVALID_INPUT', `${file} has ${count}; not published (--strict). Fix them, or publish without --strict.`, { details: lines });
  warn(`${file} has ${count}; publishing it anyway (--strict refuses):\n${lines.replace(/^/gm, '  ')}`);
}

export function registerPublish(program: Command, context: () => CliContext) {
  program
    .command('publish')
    .description('bundle a TSX template (its CSS, assets and npm dependencies) and publish it as a new version; type errors are warned about (--strict refuses them)')
    .argument('<file>', 'the template, e.g. templates/Invoice.tsx')
    .option('--id <id>', 'template id (default: the component\'s static documentId, else the file name in kebab case)')
    .option('--json', 'print the result as JSON')
    .option('--strict', 'refuse to publish a template with type errors, or one that cannot be type-checked (exit 1, nothing published)')
    .option('--no-typecheck', 'skip the type check')
    .addHelpText(
      'after',
      [
        '',
        'Before publishing, the template and the files it imports are type-checked as `imprint check`',
        'does (the project\'s TypeScript and tsconfig.json). Type errors are printed as a warning',
        'with file:line:col and the TS code, and the template is published all the same; with',
        '--strict they refuse it.',
        '',
        'Examples:',
        '  $ imprint publish templates/Invoice.tsx',
        '  $ imprint publish templates/Invoice.tsx --strict          # in CI: only a template that type-checks',
        '  $ imprint publish templates/Invoice.tsx --id invoice-2025 --json',
      ].join('\n'),
    )
    .action(async (file: string, flags: PublishFlags) => {
      if (flags.strict && !flags.typecheck) throw new ImprintError('USAGE', '--strict refuses templates with type errors; it cannot go with --no-typecheck.');
      const ctx = context();
      // From the local template cache (what render built for this file, if nothing changed since), else bundled now.
      const bundled = await withStep(
        `Bundling ${file}`,
        () => ctx.templateCache().prepare(file),
        (b) => `Bundled ${file} (${Math.round(encodeArtifact(b.artifact).length / 1024)} KiB${b.from === 'build' ? '' : ', unchanged: from the template cache'})`,
      );
      for (const line of compatNote(bundled.compat)) note(line);
      if (flags.typecheck) await typecheckBeforePublish(file, flags.strict === true);
      const id = chooseTemplateId({ explicitId: flags.id, source: readTemplateSource(file), file });
      // Read from the types, stored with the version: every render of it is checked before a page opens.
      const { derived } = bundled;
      reportSchema(file, derived);
      const propsSchema = derived.kind === 'schema' ? derived.schema : undefined;
      const backend = ctx.backend();
      const published = await withStep(`Publishing ${id}`, () => backend.publish(id, bundled.artifact, { propsSchema }), () => undefined);
      process.stdout.write(flags.json ? `${JSON.stringify(published)}\n` : `Published ${published.id} version ${published.version}\n`);
    });
}
