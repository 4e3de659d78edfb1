/**
 * Which backend a command uses, decided without side effects from what was given:
 * `--remote`/`--embedded`, else IMPRINT_MODE, else remote when an API URL and key are known
 * (flags, env, or `imprint login`), else embedded. URL and key: flag, else env, else login.
 */
import { parseApiUrl } from '../../client/client.js';
import { ImprintError } from '../../core/errors.js';
import { withoutCredentials } from '../../core/redact-secrets.js';
import type { StoredLogin } from './login-store.js';

export type Mode = 'embedded' | 'remote';

export interface ModeFlags {
  remote?: boolean;
  embedded?: boolean;
  apiUrl?: string;
  apiKey?: string;
}

export interface ModeEnv {
  IMPRINT_MODE?: string;
  IMPRINT_API_URL?: string;
  IMPRINT_API_KEY?: string;
}

export interface Connection {
  apiUrl?: string;
  apiKey?: string;
}

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

/**
 * The API URL and key given. A user:password typed into the URL is dropped here, so no message
 * or `imprint doctor` line shows it: it was never sent either (the key authenticates, and undici
 * ignores a URL's credentials).
 */
export function resolveConnection(flags: ModeFlags, env: ModeEnv, stored: StoredLogin): Connection {
  const apiUrl = nonEmpty(flags.apiUrl) ?? nonEmpty(env.IMPRINT_API_URL) ?? nonEmpty(stored.apiUrl);
  return {
    apiUrl: apiUrl === undefined ? undefined : withoutCredentials(apiUrl),
    apiKey: nonEmpty(flags.apiKey) ?? nonEmpty(env.IMPRINT_API_KEY) ?? nonEmpty(stored.apiKey),
  };
}

export function chooseMode(flags: ModeFlags, env: ModeEnv, connection: Connection): Mode {
  if (flags.remote && flags.embedded) throw new ImprintError('USAGE', 'Choose one of --remote and --embedded, not both.');
  if (flags.remote) return 'remote';
  if (flags.embedded) return 'embedded';
  const fromEnv = nonEmpty(env.IMPRINT_MODE)?.toLowerCase();
  if (fromEnv !== undefined) {
    if (fromEnv !== 'remote' && fromEnv !== 'embedded') {
      throw new ImprintError('USAGE', `Invalid IMPRINT_MODE "${env.IMPRINT_MODE}": use remote or embedded.`);
    }
    return fromEnv;
  }
  return connection.apiUrl && connection.apiKey ? 'remote' : 'embedded';
}

/** A URL a person typed: absolute http(s), without a trailing slash. */
export function normalizeApiUrl(text: string): string {
  return withoutCredentials(parseApiUrl(text.trim()).href).replace(/\/+$/, '');
}

/** Remote mode without both halves of a connection is a usage mistake with a known fix. */
export function requireConnection(connection: Connection): Required<Connection> {
  if (!connection.apiUrl || !connection.apiKey) {
    const missing = [!connection.apiUrl && 'API URL', !connection.apiKey && 'API key'].filter(Boolean).join(' and ');
    throw new ImprintError(
      'USAGE',
      `Remote mode needs an API URL and key, and the ${missing} ${missing.includes(' and ') ? 'are' : 'is'} missing. Run \`imprint login\`, or pass --api-url and --api-key (env IMPRINT_API_URL, IMPRINT_API_KEY).`,
    );
  }
  return { apiUrl: normalizeApiUrl(connection.apiUrl), apiKey: connection.apiKey };
}
