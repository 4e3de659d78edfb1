// npm version's `version` step (package.json scripts.version): once package.json has the new
// version, CHANGELOG.md's "## Unreleased" section becomes "## <version> - <date>" under a new,
// empty "## Unreleased"; npm then commits both files and tags the release. The version itself
// lives in package.json alone (src/core/version.ts reads it for --version, the User-Agent and
// the PDFs' Creator).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const UNRELEASED = '## Unreleased';

/** The changelog with its Unreleased notes filed under `version`; refuses a release with no notes. */
export function releaseChangelog(text, version, date) {
  const start = text.indexOf(`${UNRELEASED}\n`);
  if (start < 0) throw new Error(`CHANGELOG.md has no "${UNRELEASED}" section to release as ${version}.`);
  const bodyStart = start + UNRELEASED.length + 1;
  const next = text.indexOf('\n## ', bodyStart);
  const notes = text.slice(bodyStart, next < 0 ? undefined : next + 1);
  if (!notes.trim()) throw new Error(`CHANGELOG.md's "${UNRELEASED}" section is empty: write what ${version} changes first.`);
  if (text.includes(`\n## ${version} `)) throw new Error(`CHANGELOG.md already has a section for ${version}.`);
  return `${text.slice(0, start)}${UNRELEASED}\n\n## ${version} - ${date}\n${notes}${next < 0 ? '' : text.slice(next + 1)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const file = path.join(root, 'CHANGELOG.md');
  fs.writeFileSync(file, releaseChangelog(fs.readFileSync(file, 'utf8'), version, new Date().toISOString().slice(0, 10)));
}
