/** `imprint whoami`: the API URL in use and the team its key belongs to. */
import type { Command } from 'commander';
import { ImprintError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { requireConnection } from '../config/mode.js';

export function registerWhoami(program: Command, context: () => CliContext) {
  program
    .command('whoami')
    .description('show the Imprint API in use and the team of its key')
    .option('--json', 'print a JSON object')
    .action(async (flags: { json?: boolean }) => {
      const ctx = context();
      const connection = ctx.connection();
      if (!connection.apiUrl && !connection.apiKey) {
        throw new ImprintError('USAGE', `Not logged in to an Imprint API: commands run in embedded mode on ${ctx.dataDir}. Log in with \`imprint login\`.`);
      }
      const { apiUrl } = requireConnection(connection);
      const { team } = await ctx.remote().whoami();
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ apiUrl, team })}\n`);
        return;
      }
      process.stdout.write(
        [`API:    ${apiUrl}`, `Team:   ${team.name}`, `Usage:  ${team.usedThisMonth} of ${team.generationLimit} generations in ${team.month} (UTC)`, ''].join('\n'),
      );
    });
}
