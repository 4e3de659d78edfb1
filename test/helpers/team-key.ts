/** A team and an API key of it in a data folder, made with the installed CLI as an operator does. */
import assert from 'node:assert/strict';
import type { cliWithDataDir } from './cli.js';

export async function createTeamKey(operator: ReturnType<typeof cliWithDataDir>, team = 'acme'): Promise<string> {
  const made = await operator.run(['team', 'create', team]);
  assert.equal(made.code, 0, made.describe());
  const created = await operator.run(['key', 'create', '--team', team]);
  assert.equal(created.code, 0, created.describe());
  return created.stdout.toString().trim();
}
