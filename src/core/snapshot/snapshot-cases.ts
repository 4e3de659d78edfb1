/**
 * What a template's snapshots are: one of its PreviewProps, and one per props fixture beside
 * it named `<Name>.<case>.props.json` (`Invoice.long.props.json` is the case "Invoice.long").
 * `<Name>.props.json` alone is what `imprint dev` renders, not a fixture.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface SnapshotCase {
  /** The snapshot's file name without `.pdf`: "Invoice", "Invoice.long". */
  name: string;
  /** The fixture's path; none for the PreviewProps. */
  propsFile?: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function snapshotCases(templateFile: string): SnapshotCase[] {
  const dir = path.dirname(templateFile);
  const base = path.basename(templateFile).replace(/\.[^.]+$/, '');
  const fixture = new RegExp(`^${escapeRegExp(base)}\\.([^/]+)\\.props\\.json$`);
  const fixtures = fs
    .readdirSync(dir)
    .map((name) => ({ name, match: fixture.exec(name) }))
    .filter((entry) => entry.match)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((entry) => ({ name: `${base}.${entry.match![1]}`, propsFile: path.join(dir, entry.name) }));
  return [{ name: base }, ...fixtures];
}
