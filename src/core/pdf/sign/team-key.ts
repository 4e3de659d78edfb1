/**
 * A team's signing key as the service's engine asks for it (request field `sign`): read sealed
 * from the store and opened with the server's secret for this one signature; the opened key
 * lives only in memory, for the request.
 */
import { ImprintError } from '../../errors.js';
import type { Store } from '../../store/index.js';
import { openSigningKey, SERVER_SECRET_VARIABLE } from './sealed-key.js';
import type { SigningKey } from './signing-key.js';

export function teamSigningKeys(store: Pick<Store, 'getSigningKey'>, secret: string | undefined): (teamId: number) => Promise<SigningKey> {
  return async (teamId) => {
    const stored = await store.getSigningKey(teamId);
    if (!stored) throw new ImprintError('INVALID_INPUT', "sign: this team has no signing key. The service's operator stores one with `imprint team signing-key <team> --p12 <file>`.");
    if (secret === undefined) throw new ImprintError('INTERNAL', `sign: the service runs without ${SERVER_SECRET_VARIABLE}, so the team's sealed signing key cannot be opened. Start \`imprint serve\` with the ${SERVER_SECRET_VARIABLE} the key was stored with.`);
    return openSigningKey(stored.sealed, secret, teamId);
  };
}
