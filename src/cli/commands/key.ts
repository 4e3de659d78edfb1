/**
 * `imprint key create|list|revoke`: API keys of a team, straight on the data folder. A new
 * key is printed once, alone on stdout (so `KEY=$(imprint key create --team acme)` works);
 * only its hash is stored.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { addDatabaseOption } from '../database-option.js';
import { ImprintError } from '../../core/errors.js';
import { done, note } from '../ui/status.js';
import { formatTable } from '../ui/table.js';

export function registerKey(program: Command, context: () => CliContext) {
  const key = addDatabaseOption(program
    .command('key')
    .description("manage a team's API keys in the data folder that `imprint serve` serves (operator)")
    .addHelpText('after', '\nExamples:\n  $ imprint key create --team acme\n  $ imprint key create --team acme --test   # documents stamped TEST, not counted\n  $ imprint key list --team acme\n  $ imprint key revoke key_0123456789ab'));
  const store = () => context().store(key.opts<{ database?: string }>().database);

  key
    .command('create')
    .description('create an API key for a team and print it (shown only this once)')
    .requiredOption('--team <name>', 'the team the key belongs to')
    .option('--test', 'a test key: its documents carry a diagonal TEST stamp on every page and do not count against the limit')
    .action(async (flags: { team: string; test?: boolean }) => {
      const opened = await store();
      let created;
      if (flags.test) {
        const team = await opened.getTeam(flags.team);
        if (!team) throw new ImprintError('NOT_FOUND', `No team named "${flags.team}". Check the name, or create the team first (\`imprint team create ${flags.team}\`).`);
        created = await opened.dashboard.createKey(team.id, { test: true });
      } else {
        created = await opened.createApiKey(flags.team);
      }
      process.stdout.write(`${created.key}\n`);
      const kind = flags.test ? 'test key (documents stamped TEST, not counted)' : 'key';
      note(`Created ${kind} ${created.keyId} for team ${flags.team}. The key above is shown only once: only its hash is stored.`);
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
