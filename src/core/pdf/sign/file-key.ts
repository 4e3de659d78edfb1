/**
 * An AES-256 (/R 6) encrypted file's key from one of its passwords (ISO 32000-2, 7.6.4.3.3
 * and algorithm 2.B), and the AESV3 cipher with it. A visible signature's appearance is a stream,
 * and an encrypted file's streams and strings must be encrypted with the file's key, which only
 * a password unlocks: so signing an encrypted file visibly needs the password it was encrypted
 * with (the render has it; the CLI takes it from --user-password / --owner-password). R6 uses
 * one key for every object (no per-object key), each string or stream with its own random IV.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface R6Handler {
  /** /O, /U, /OE, /UE as their bytes. */
  O: Buffer;
  U: Buffer;
  OE: Buffer;
  UE: Buffer;
}

const HASHES = ['sha256', 'sha384', 'sha512'] as const;

/** Algorithm 2.B: the hash a password, a salt and (for the owner) /U make. */
function hardenedHash(password: Buffer, salt: Buffer, userKey: Buffer): Buffer {
  let k = createHash('sha256').update(Buffer.concat([password, salt, userKey])).digest();
  let e = Buffer.alloc(0);
  // At least 64 rounds; then on while E's last byte is above the rounds done less 32.
  for (let rounds = 0; rounds < 64 || e[e.length - 1]! > rounds - 32; rounds++) {
    const block = Buffer.concat([password, k, userKey]);
    const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32)).setAutoPadding(false);
    e = Buffer.concat([cipher.update(Buffer.concat(Array.from({ length: 64 }, () => block))), cipher.final()]);
    // E's first 16 bytes as a number mod 3: 256 is 1 mod 3, so the sum of the bytes mod 3.
    const choice = e.subarray(0, 16).reduce((sum, byte) => sum + byte, 0) % 3;
    k = createHash(HASHES[choice]!).update(e).digest();
  }
  return k.subarray(0, 32);
}

const unwrap = (key: Buffer, wrapped: Buffer) => {
  const decipher = createDecipheriv('aes-256-cbc', key, Buffer.alloc(16)).setAutoPadding(false);
  return Buffer.concat([decipher.update(wrapped.subarray(0, 32)), decipher.final()]);
};

/** The file key, or undefined when `password` is neither the user's nor the owner's. */
export function r6FileKey(handler: R6Handler, password: string): Buffer | undefined {
  // UTF-8 (SASLprep is the identity for the passwords people type), at most 127 bytes.
  const given = Buffer.from(password, 'utf8').subarray(0, 127);
  const u = handler.U.subarray(0, 48);
  if (hardenedHash(given, handler.O.subarray(32, 40), u).equals(handler.O.subarray(0, 32))) return unwrap(hardenedHash(given, handler.O.subarray(40, 48), u), handler.OE);
  if (hardenedHash(given, handler.U.subarray(32, 40), Buffer.alloc(0)).equals(handler.U.subarray(0, 32))) return unwrap(hardenedHash(given, handler.U.subarray(40, 48), Buffer.alloc(0)), handler.UE);
  return undefined;
}

/** AESV3: a fresh IV, then the bytes in AES-256-CBC with PKCS#7 padding. */
export function aesv3Encrypt(key: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([iv, cipher.update(plain), cipher.final()]);
}

export function aesv3Decrypt(key: Buffer, sealed: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-cbc', key, sealed.subarray(0, 16));
  return Buffer.concat([decipher.update(sealed.subarray(16)), decipher.final()]);
}
