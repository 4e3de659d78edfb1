/**
 * The operator's settings of `imprint serve` that are more than one value: the outbound
 * network policy (--allow-host, --allow-private and their environment variables) and the
 * whole numbers of the limits (props depth, pages, render slots, queue length). Pure, so the rules are unit-tested apart from commander.
 */
import { ImprintError } from '../core/errors.js';
import { createNetPolicy, type NetPolicy } from '../core/net/address-policy.js';
import { parseAllowList } from '../core/net/allow-list.js';

/**
 * One --allow-host value (or IMPRINT_ALLOW_HOSTS): a host, `*.domain`, an address or a CIDR,
 * or several separated by commas; added to the earlier ones. Checked at once, so a typo stops
 * the service before it starts, naming the entry.
 */
export function collectAllowHosts(value: string, previous: readonly string[] = []): string[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  parseAllowList(entries);
  return [...previous, ...entries];
}

/** A whole number of at least `min`, written in digits only (no sign, fraction or exponent). */
function parseWholeNumber(text: string, what: string, min: number, hint = ''): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min) {
    throw new ImprintError('USAGE', `Invalid ${what} "${text}": use a whole number of at least ${min}${hint}.`);
  }
  return value;
}

/** A limit counted in whole things (levels, pages, render slots). */
export function parsePositiveInteger(text: string, what: string): number {
  return parseWholeNumber(text, what, 1);
}

/**
 * The render queue's length (--queue-length, IMPRINT_QUEUE_LENGTH): renders that may wait for
 * a slot; 0 is allowed and means none wait (every render past the slots answers 429 at once).
 */
export function parseQueueLength(text: string, what: string): number {
  return parseWholeNumber(text, what, 0, ' (0: no render waits, every one past the busy slots answers 429)');
}

export interface NetFlags {
  allowHost: readonly string[];
  allowPrivate: boolean;
}

/** The service's policy: public addresses, plus what the operator opened. */
export function serveNetPolicy(flags: NetFlags): NetPolicy {
  return createNetPolicy({ allow: flags.allowHost, allowPrivate: flags.allowPrivate });
}
