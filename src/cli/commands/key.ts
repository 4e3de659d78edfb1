/**
 * `imprint key create|list|revoke`: API keys of a team, straight on the data folder. A new
 * key is printed once, alone on stdout (so `KEY=$(imprint key create --team acme)` works);
 * only its hash is stored.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { addDatabaseOption } from '../database-option.js';
import { done, note } from '../ui/status.js';
import { formatTable } from '../ui/table.js';

export function registerKey(program: Command, context: () => CliContext) {
  const key = addDatabaseOption(program
    .command('key')
    .description("manage a team's API keys in the data folder that `imprint serve` serves (operator)")
    .addHelpText('after', '\nExamples:\n  $ imprint key create --team acme\n  $ imprint key list --team acme\n  $ imprint key revoke key_0123456789ab'));
  const store = () => context().store(key.opts<{ database?: string }>().database);

  key
    .command('create')
    .description('create an API key for a team and print it (shown only this once)')
    .requiredOption('--team <name>', 'the team the key belongs to')
    .action(async (flags: { team: string }) => {
      const created = await (await store()).createApiKey(flags.team);
      process.stdout.write(`${created.key}\n`);
      note(`Created ${created.keyId} for team ${flags.team}. The key above is shown only once: only its hash is stored.`);
    });

  key
    .command('list')
    .alias('ls')
    .description("list a team's keys (ids and dates; the keys themselves are not stored)")
    .requiredOption('--team <name>', 'the team')
    .option('--json', 'print a JSON array')
    .action(async (flags: { team: string; json?: boolean }) => {
      const keys = await (await store()).listApiKeys(flags.team);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
        return;
      }
      const rows = keys.map((k) => [k.id, k.createdAt, k.revokedAt ?? '-']);
      process.stdout.write(formatTable(['ID', 'CREATED', 'REVOKED'], rows, !process.stdout.isTTY));
    });

  key
    .command('revoke')
    .description('revoke a key: requests with it answer 401 from now on')
    .argument('<key-id>', 'the id shown by `imprint key list`, e.g. key_0123456789ab')
    .action(async (keyId: string) => {
      await (await store()).revokeApiKey(keyId);
      done(`Revoked ${keyId}.`);
    });
}
