/**
 * Which proxies' X-Forwarded-For and X-Forwarded-Proto the service believes (`--trust-proxy`),
 * as Fastify's trustProxy option takes them (proxy-addr underneath). Believing every hop, as
 * `--trust-proxy` once did, made the client address the left-most one, which the client itself
 * writes: behind the documented nginx a client that sent its own X-Forwarded-For was never
 * counted by the sign-in limit (issue 41, case 2). Now the operator names the proxies by address
 * or CIDR (or proxy-addr's `loopback`, `linklocal`, `uniquelocal`): only a connection from one of
 * them is believed, and the client is the right-most address in the chain that is not one of
 * them, the one the last trusted proxy saw. `--trust-proxy` alone trusts `loopback`: nginx on
 * the same machine, as docs/deploy.md runs it. Hop counts are not taken: a count cannot tell a
 * proxy from a client that connects directly (Fastify itself refuses them: it trusts nothing).
 */
import net from 'node:net';
import { ImprintError } from '../../core/errors.js';

/** Off, or the proxies' addresses and ranges. */
export type TrustProxy = false | readonly string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = net.isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/** What `--trust-proxy` alone (and IMPRINT_TRUST_PROXY=1) trusts: a proxy on this machine. */
export const LOCAL_PROXY: TrustProxy = ['loopback'];

/**
 * `--trust-proxy` (alone: "on") or IMPRINT_TRUST_PROXY: on/true/yes/1 (loopback), off/false/no/0,
 * or addresses and CIDRs separated by commas. Anything else is a usage error naming the entry.
 */
export function parseTrustProxy(text: string): TrustProxy {
  const value = text.trim().toLowerCase();
  if (['off', 'false', 'no', '0'].includes(value)) return false;
  if (['on', 'true', 'yes', '1'].includes(value)) return LOCAL_PROXY;
  if (/^\d+$/.test(value)) {
    throw new ImprintError('USAGE', `Invalid --trust-proxy "${text}": a number of proxies cannot tell a proxy from a client that connects directly. Give the proxies' addresses: --trust-proxy 10.0.0.5,10.0.1.0/24 (or loopback).`);
  }
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  const wrong = entries.find((entry) => !isAddressOrRange(entry));
  if (entries.length === 0 || wrong !== undefined) {
    throw new ImprintError(
      'USAGE',
      `Invalid --trust-proxy "${text}"${wrong === undefined ? '' : `: "${wrong}" is not an address or CIDR`}. Give the addresses of the proxies in front of the service: --trust-proxy 10.0.0.5,10.0.1.0/24 (or loopback, for nginx on this machine).`,
    );
  }
  return entries;
}
