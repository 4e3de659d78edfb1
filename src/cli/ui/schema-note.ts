/** How a command tells what props checking a template gets from its types. */
import type { DerivedSchema } from '../../core/schema/derive-props-schema.js';
import { note, warn } from './status.js';

export function reportSchema(file: string, derived: DerivedSchema): void {
  if (derived.kind === 'schema') note(`Props of ${file} are checked against its props type (see \`imprint schema\`).`);
  else warn(`No props schema for ${file}: ${derived.reason}. Its props will not be checked.`);
}
