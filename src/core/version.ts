/**
 * Imprint's own version, read from its package.json once: the CLI's --version, the client's
 * User-Agent and the Creator and Producer of every PDF say the same thing. package.json is
 * the one source: `npm version <x>` changes it, and with it all of these (and the `version`
 * script dates CHANGELOG.md's Unreleased section: scripts/release-changelog.js).
 */
import { imprintManifest } from './package-root.js';

export const imprintVersion = (): string => imprintManifest().version;

/** What a PDF names as its Creator (unless the template or request says otherwise) and Producer. */
export const imprintSoftwareName = () => `Imprint ${imprintVersion()}`;

/** What the client sends as its User-Agent: this version, and the Node that runs it. */
export const imprintUserAgent = () => `imprint/${imprintVersion()} node/${process.versions.node}`;
