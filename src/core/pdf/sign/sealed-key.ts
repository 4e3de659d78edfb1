/**
 * A team's signing key at rest: sealed with the server's secret (IMPRINT_SECRET, an
 * environment variable of `imprint serve` and of the operator's `imprint team signing-key`,
 * never stored beside the data) so the database, its backups and dumps hold no usable key.
 * AES-256-GCM under a key derived from the secret by HKDF-SHA256 with a random salt per key;
 * the team's id is the additional data, so a sealed row copied to another team does not open.
 * Sealed: "v1." + base64(salt 16 | iv 12 | tag 16 | ciphertext).
 */
import { createCipheriv, createDecipheriv, createPrivateKey, hkdfSync, randomBytes, X509Certificate } from 'node:crypto';
import { ImprintError } from '../../errors.js';
import type { SigningKey } from './signing-key.js';

export const SERVER_SECRET_VARIABLE = 'IMPRINT_SECRET';
/** 32 characters of a random secret carry at least the 256 bits the key needs (openssl rand -base64 32 gives 44). */
const MIN_SECRET_LENGTH = 32;
const VERSION = 'v1.';
const INFO = Buffer.from('imprint team signing key v1');

/** The server's secret from the environment; `purpose` says what needs it, for the message. */
export function serverSecret(env: Readonly<Record<string, string | undefined>>, purpose: string): string {
  const secret = env[SERVER_SECRET_VARIABLE];
  if (secret === undefined || secret.trim() === '') {
    throw new ImprintError('USAGE', `${purpose} needs the server's secret: set ${SERVER_SECRET_VARIABLE} (e.g. to the output of \`openssl rand -base64 32\`) for \`imprint serve\` and for \`imprint team signing-key\`, the same value for both.`);
  }
  if (secret.length < MIN_SECRET_LENGTH) throw new ImprintError('USAGE', `${SERVER_SECRET_VARIABLE} is ${secret.length} characters: use at least ${MIN_SECRET_LENGTH} random ones (\`openssl rand -base64 32\`).`);
  return secret;
}

const keyFor = (secret: string, salt: Buffer) => Buffer.from(hkdfSync('sha256', secret, salt, INFO, 32));
const teamData = (teamId: number) => Buffer.from(`team:${teamId}`);

export function sealSigningKey(key: SigningKey, secret: string, teamId: number): string {
  const plain = Buffer.from(
    JSON.stringify({
      key: key.privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
      certificate: key.certificate.toString('base64'),
      chain: key.chain.map((der) => der.toString('base64')),
    }),
  );
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, salt), iv);
  cipher.setAAD(teamData(teamId));
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return VERSION + Buffer.concat([salt, iv, cipher.getAuthTag(), sealed]).toString('base64');
}

export function openSigningKey(sealed: string, secret: string, teamId: number): SigningKey {
  const bytes = Buffer.from(sealed.slice(VERSION.length), 'base64');
  if (!sealed.startsWith(VERSION) || bytes.length < 45) throw new ImprintError('INTERNAL', "The team's stored signing key is not in a form this version reads.");
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, bytes.subarray(0, 16)), bytes.subarray(16, 28));
  decipher.setAAD(teamData(teamId));
  decipher.setAuthTag(bytes.subarray(28, 44));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(bytes.subarray(44)), decipher.final()]);
  } catch (error) {
    throw new ImprintError('INTERNAL', `The team's signing key does not open with this server's ${SERVER_SECRET_VARIABLE}: it was stored under another secret. Store the key again (\`imprint team signing-key\`) with the secret the service runs with.`, { cause: error });
  }
  const parsed = JSON.parse(plain.toString('utf8')) as { key: string; certificate: string; chain: string[] };
  return {
    privateKey: createPrivateKey({ key: Buffer.from(parsed.key, 'base64'), format: 'der', type: 'pkcs8' }),
    certificate: Buffer.from(parsed.certificate, 'base64'),
    chain: parsed.chain.map((der) => Buffer.from(der, 'base64')),
  };
}

/** The certificate's public facts the store keeps beside the sealed key. */
export function signingKeyFacts(key: SigningKey): { subject: string; notAfter: string } {
  const certificate = new X509Certificate(key.certificate);
  return { subject: certificate.subject.split('\n').join(', '), notAfter: new Date(certificate.validTo).toISOString() };
}
