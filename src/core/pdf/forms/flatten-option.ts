/** The `flatten` request field (CLI `--flatten`): a template's form fields drawn as page content, no form left. */
import { ImprintError } from '../../errors.js';

export function parseFlatten(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new ImprintError('USAGE', `Invalid flatten: expected true or false, got ${JSON.stringify(value)}.`);
  return value;
}
