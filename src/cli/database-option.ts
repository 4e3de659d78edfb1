/**
 * `--database <url>`: the PostgreSQL database of a service that runs on several machines
 * (docs/deploy.md). `imprint serve` lists it in its settings table; the operator commands
 * (team, key) take it too, so they manage the same teams and keys the nodes serve.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';

export const DATABASE_ENV = 'IMPRINT_DATABASE_URL';

export const DATABASE_DESCRIPTION = `a PostgreSQL URL (postgres://user:password@host:5432/imprint) for teams, keys, templates and counts; without it, the data folder's own SQLite database`;

/** A postgres:// or postgresql:// URL; anything else is a usage error that says what to give. */
export function parseDatabaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError('use a PostgreSQL URL such as postgres://imprint:secret@127.0.0.1:5432/imprint.');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new InvalidArgumentError(`"${url.protocol}" is not a PostgreSQL URL: use postgres://user:password@host:5432/database.`);
  }
  return text;
}

/** Adds --database to an operator command; its subcommands read it from there. */
export function addDatabaseOption(command: Command): Command {
  return command.addOption(new Option('--database <url>', `${DATABASE_DESCRIPTION} (env: ${DATABASE_ENV})`).argParser(parseDatabaseUrl));
}
