/** A team in a service's data folder and an API key for it, made by the operator's CLI as an operator would. */
import assert from 'node:assert/strict';
import type { cliWithDataDir } from './cli.js';

export async function teamWithKey(operator: ReturnType<typeof cliWithDataDir>, team = 'acme'): Promise<string> {
  const made = await operator.run(['team', 'create', team]);
  assert.equal(made.code, 0, made.describe());
  const created = await operator.run(['key', 'create', '--team', team]);
  assert.equal(created.code, 0, created.describe());
  return created.stdout.toString().trim();
}
