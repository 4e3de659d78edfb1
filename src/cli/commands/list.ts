/** `imprint list`: the team's template ids, latest versions and publish times. */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { note } from '../ui/status.js';
import { formatTable } from '../ui/table.js';

export function registerList(program: Command, context: () => CliContext) {
  program
    .command('list')
    .alias('ls')
    .description('list published templates: id, latest version, publish time')
    .option('--json', 'print a JSON array')
    .action(async (flags: { json?: boolean }) => {
      const templates = await context().backend().list();
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(templates.map(({ id, latestVersion, publishedAt }) => ({ id, latestVersion, publishedAt })), null, 2)}\n`);
        return;
      }
      if (templates.length === 0) {
        note('No templates published yet. Publish one with `imprint publish <file.tsx>`.');
        return;
      }
      const rows = templates.map((t) => [t.id, String(t.latestVersion), t.publishedAt]);
      process.stdout.write(formatTable(['ID', 'VERSION', 'PUBLISHED'], rows, !process.stdout.isTTY));
    });
}
