/** On/off environment variables (IMPRINT_ALLOW_PRIVATE=1). */
import { ImprintError } from '../core/errors.js';

const ON = new Set(['1', 'true', 'yes', 'on']);
const OFF = new Set(['', '0', 'false', 'no', 'off']);

/**
 * An on/off environment variable. Strict: IMPRINT_ALLOW_PRIVATE=0 must not open the private
 * network, and an unreadable value is an error rather than a guess either way.
 */
export function parseSwitch(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  const normalised = value.trim().toLowerCase();
  if (ON.has(normalised)) return true;
  if (OFF.has(normalised)) return false;
  throw new ImprintError('USAGE', `Invalid ${name}=${JSON.stringify(value)}: use 1 (on) or 0 (off).`);
}
