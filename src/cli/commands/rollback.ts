/** `imprint rollback <id> <version>`: publish an earlier version again as the latest (api.md Part E). */
import type { Command } from 'commander';
import { parseTemplateVersionText } from '../../core/template-version.js';
import type { CliContext } from '../context.js';
import { withStep } from '../ui/status.js';

export function registerRollback(program: Command, context: () => CliContext) {
  program
    .command('rollback')
    .description('publish an earlier version of a template again, as a new latest version (the history is kept)')
    .argument('<id>', 'a published template id or UUID')
    .argument('<version>', 'the version to make the latest again (see `imprint versions <id>`)')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nExamples:\n  $ imprint versions invoice\n  $ imprint rollback invoice 3')
    .action(async (id: string, versionText: string, flags: { json?: boolean }) => {
      const version = parseTemplateVersionText(versionText);
      const backend = context().backend();
      const rolled = await withStep(`Rolling ${id} back to version ${version}`, () => backend.rollback(id, version), () => undefined);
      process.stdout.write(flags.json ? `${JSON.stringify(rolled)}\n` : `Published ${rolled.id} version ${rolled.version} (the content of version ${rolled.rollbackOf})\n`);
    });
}
