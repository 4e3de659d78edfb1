/** The one-time codes of `imprint login --web`: made by the store, checked in the route's input. */
import { randomBytes } from 'node:crypto';

/** Login codes are typed or read aloud: no look-alike letters (0/O, 1/I/L). */
const CODE_LETTERS = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function loginCode(): string {
  const bytes = randomBytes(8);
  const letters = [...bytes].map((byte) => CODE_LETTERS[byte % CODE_LETTERS.length]);
  return `${letters.slice(0, 4).join('')}-${letters.slice(4).join('')}`;
}

export const LOGIN_CODE_PATTERN = /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/;
