/** `imprint team create|list|set-limit|webhook-secret`: the operator's teams, straight on the data folder. */
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_GENERATION_LIMIT } from '../../core/store/index.js';
import type { CliContext } from '../context.js';
import { addDatabaseOption } from '../database-option.js';
import { ImprintError } from '../../core/errors.js';
import { guideFile } from '../../core/guides.js';
import { done, note } from '../ui/status.js';
import { formatTable } from '../ui/table.js';
import { registerSigningKey } from './team-signing-key.js';

function parseLimit(text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new InvalidArgumentError('use a whole number of generations per month, 0 or more.');
  }
  return Number(text);
}

const describeLimit = (limit: number) => `${limit} generation${limit === 1 ? '' : 's'} a month`;

export function registerTeam(program: Command, context: () => CliContext) {
  const team = addDatabaseOption(program
    .command('team')
    .description('manage the teams of the data folder that `imprint serve` serves (operator)')
    .addHelpText('after', '\nExamples:\n  $ imprint team create acme --limit 5000\n  $ imprint team list\n  $ imprint team set-limit acme 10000\n  $ imprint team webhook-secret acme\n  $ IMPRINT_SECRET=... IMPRINT_SIGN_PASSWORD=... imprint team signing-key acme --p12 acme.p12'));
  const store = () => context().store(team.opts<{ database?: string }>().database);

  team
    .command('create')
    .description('create a team')
    .argument('<name>', 'team name: letters, digits, "-", "_" or "."')
    .option('--limit <n>', `generations allowed per calendar month (UTC)`, parseLimit, DEFAULT_GENERATION_LIMIT)
    .action(async (name: string, flags: { limit: number }) => {
      const created = await (await store()).createTeam(name, flags.limit);
      done(`Created team ${created.name} (${describeLimit(created.generationLimit)}). Give it a key with \`imprint key create --team ${created.name}\`.`);
    });

  team
    .command('list')
    .alias('ls')
    .description("list teams with their limit and this month's usage")
    .option('--json', 'print a JSON array')
    .action(async (flags: { json?: boolean }) => {
      const teams = await (await store()).listTeams();
      if (flags.json) {
        const rows = teams.map(({ name, generationLimit, usedThisMonth, createdAt }) => ({ name, generationLimit, usedThisMonth, createdAt }));
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      const rows = teams.map((t) => [t.name, String(t.generationLimit), String(t.usedThisMonth), t.createdAt]);
      process.stdout.write(formatTable(['NAME', 'LIMIT', 'USED THIS MONTH', 'CREATED'], rows, !process.stdout.isTTY));
    });

  team
    .command('set-limit')
    .description("change a team's monthly generation limit (takes effect at once)")
    .argument('<name>', 'team name')
    .argument('<limit>', 'generations per calendar month (UTC), 0 or more', parseLimit)
    .action(async (name: string, limit: number) => {
      const updated = await (await store()).setTeamLimit(name, limit);
      done(`Team ${updated.name} may now make ${describeLimit(updated.generationLimit)}.`);
    });

  team
    .command('webhook-secret')
    .description("make the team's signing secret for job webhooks and print it (shown only this once; replaces the previous one)")
    .argument('<name>', 'team name')
    .action(async (name: string) => {
      const opened = await store();
      const found = await opened.getTeam(name);
      if (!found) throw new ImprintError('NOT_FOUND', `No team named "${name}". Check the name (\`imprint team list\`), or create the team first.`);
      // Alone on stdout, like a new API key: SECRET=$(imprint team webhook-secret acme).
      process.stdout.write(`${await opened.rotateWebhookSecret(found.id)}\n`);
      note(
        `The secret above signs team ${name}'s job webhooks from now on and is shown only this once. Give it to the receiver, which verifies each delivery's webhook-signature with it (${guideFile('webhooks')}).`,
      );
    });

  registerSigningKey(team, store, context);
}
