/**
 * A team's webhook signing secret, in the Standard Webhooks form: `whsec_` and the base64 of
 * random bytes. Receivers (the `standardwebhooks` libraries among them) strip the prefix and
 * base64-decode the rest to get the HMAC key, so the key is the random bytes themselves.
 */
import { randomBytes } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** 32 bytes (256 bits, HMAC-SHA256's own strength): the Standard Webhooks convention asks for 24 to 64. */
export const WEBHOOK_SECRET_BYTES = 32;

/** What generateWebhookSecret makes: the prefix and the 44 base64 characters of 32 bytes. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(WEBHOOK_SECRET_BYTES).toString('base64');
}

/** The HMAC key of a secret: its bytes after `whsec_`. Throws on anything that is not a secret of this form. */
export function webhookSigningKey(secret: string): Buffer {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) throw new TypeError('A webhook signing secret starts with "whsec_".');
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  if (key.length < 24) throw new TypeError('A webhook signing secret holds at least 24 bytes after "whsec_".');
  return key;
}
