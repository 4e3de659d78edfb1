/**
 * The secret a team's webhooks are signed with, required when a job with a webhook is
 * submitted: a secret made on the fly could never be shown to the team (it is shown only when
 * made), so its receiver could verify nothing. The caller is told how to make one instead.
 */
import { ImprintError } from '../errors.js';
import type { Store } from '../store/types.js';

export const NO_WEBHOOK_SECRET_MESSAGE =
  'This team has no webhook signing secret yet, so its webhooks could not be verified: make one with POST /api/webhook-secret (or have the operator run `imprint team webhook-secret <team>`), give it to the receiver, then submit the job again.';

/** The team's secret; INVALID_INPUT (400) when it has none. */
export async function requireWebhookSecret(store: Pick<Store, 'getWebhookSecret'>, teamId: number): Promise<string> {
  const secret = await store.getWebhookSecret(teamId);
  if (secret === undefined) throw new ImprintError('INVALID_INPUT', NO_WEBHOOK_SECRET_MESSAGE);
  return secret;
}
