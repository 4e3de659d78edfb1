/**
 * The guides in docs/, as messages, --help and the service's OpenAPI description point at them.
 * They ship in the package (package.json `files`). The rule: what only the CLI prints (--help,
 * its notes) names the file inside the imprint that runs (guideFile): the same version as the
 * code naming it, readable offline with `less`. What can reach another machine (the service's
 * OpenAPI description, an error a render can answer over HTTP) names the web page of that
 * version (guideUrl), built from package.json's `repository`, the one place the project's
 * address is written.
 */
import path from 'node:path';
import { imprintManifest, packageRoot } from './package-root.js';
import { imprintVersion } from './version.js';

/** Every guide in docs/ (test/unit/core/guides.test.ts holds this list to the folder). */
export const GUIDES = [
  'api',
  'cli',
  'components',
  'contributing',
  'dashboard',
  'deploy',
  'determinism',
  'dev',
  'einvoice',
  'finishing',
  'htmldocs',
  'install',
  'jobs',
  'jobs-cli',
  'library',
  'operate',
  'renderer',
  'security',
  'service',
  'templates',
  'webhooks',
] as const;

export type Guide = (typeof GUIDES)[number];

/** The folder of the guides inside the package that runs, e.g. /usr/lib/node_modules/imprint/docs. */
export const guidesFolder = () => path.join(packageRoot(), 'docs');

/** The guide's file inside the package that runs, e.g. /usr/lib/node_modules/imprint/docs/deploy.md. */
export function guideFile(name: Guide): string {
  return path.join(guidesFolder(), `${name}.md`);
}

let repository: string | undefined;

/** https://github.com/owner/name from package.json's `repository` (`git+https://…/name.git` or `{ url }`). */
export function repositoryWebUrl(): string {
  if (repository) return repository;
  const manifest = imprintManifest();
  const given = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  if (!given) throw new Error(`imprint's package.json has no repository: ${path.join(packageRoot(), 'package.json')}`);
  repository = given.replace(/^git\+/, '').replace(/\.git$/, '');
  return repository;
}

/** The guides' folder on the web at the version that runs (`npm version` tags each release v<version>). */
export const guidesUrl = () => `${repositoryWebUrl()}/tree/v${imprintVersion()}/docs`;

/** The guide on the web at the version that runs. */
export function guideUrl(name: Guide, anchor?: string): string {
  return `${repositoryWebUrl()}/blob/v${imprintVersion()}/docs/${name}.md${anchor ? `#${anchor}` : ''}`;
}
