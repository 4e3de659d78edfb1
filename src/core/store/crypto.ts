/** Hashes and random secrets: the store keeps only hashes of keys and tokens, never the secrets. */
import { createHash, randomBytes } from 'node:crypto';

export const sha256Hex = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** 32 random bytes as base64url: 43 characters, 256 bits, unguessable. */
export const randomSecret = (): string => randomBytes(32).toString('base64url');

export const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const SHA256_PATTERN = /^[0-9a-f]{64}$/;
