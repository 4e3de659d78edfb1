/** `imprint versions <id>`: every published version of a template, and who published it. */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { formatTable } from '../ui/table.js';

/** The first characters of a SHA-256 name a version as surely as git's short hashes do. */
const SHORT_HASH = 12;

export function registerVersions(program: Command, context: () => CliContext) {
  program
    .command('versions')
    .description("list a template's versions: number, publish time, size, content hash, who published it")
    .argument('<id>', 'a published template id or UUID')
    .option('--json', 'print a JSON array (full hashes)')
    .addHelpText('after', '\nExamples:\n  $ imprint versions invoice\n  $ imprint render invoice@3 --props props.json   # pin a version\n  $ imprint rollback invoice 3                     # make it the latest again')
    .action(async (id: string, flags: { json?: boolean }) => {
      const { versions } = await context().backend().versions(id);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(versions, null, 2)}\n`);
        return;
      }
      const rows = versions.map((v) => [
        String(v.version),
        v.publishedAt,
        `${v.bytes}`,
        v.artifactSha256.slice(0, SHORT_HASH),
        v.publishedBy ?? 'local',
        v.rollbackOf === null ? '' : `rollback of ${v.rollbackOf}`,
      ]);
      process.stdout.write(formatTable(['VERSION', 'PUBLISHED', 'BYTES', 'SHA256', 'BY', 'NOTE'], rows, !process.stdout.isTTY));
    });
}
