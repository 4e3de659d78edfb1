/**
 * Decides whether a host (a name or an address, as it appears in a URL or a CONNECT line)
 * may be reached, and if so at which addresses. A name is resolved once and every address it
 * resolves to is checked; the caller must then connect to one of exactly those addresses and
 * never resolve the name again (a second lookup is where DNS rebinding gets in).
 */
import { type AddressDecision, type DenyReason, type NetPolicy } from './address-policy.js';
import { normaliseHostname } from './allow-list.js';
import { parseIp } from './ip-class.js';
import { systemResolver, type Resolver } from './resolver.js';

export type DestinationDenyReason =
  | DenyReason
  | 'invalid-host'
  | 'localhost-name' // localhost and *.localhost: loopback by definition (RFC 6761), never looked up
  | 'metadata-name' // metadata.google.internal and friends
  | 'unresolvable';

export type AllowedAddress = Extract<AddressDecision, { allowed: true }>;

export type DestinationDecision =
  | { allowed: true; host: string; addresses: readonly AllowedAddress[] }
  | { allowed: false; host: string; reason: DestinationDenyReason; detail: string; address?: string };

export type DestinationCheck = (host: string) => Promise<DestinationDecision>;

const LOCALHOST_NAMES = new Set(['localhost', 'localhost.localdomain', 'localhost6', 'localhost6.localdomain6', 'ip6-localhost', 'ip6-loopback']);

/** Names that point at a cloud metadata service. Their addresses are denied anyway; naming them
 * saves a lookup and gives the log a clearer reason. */
export const METADATA_HOSTNAMES: readonly string[] = [
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
];

export function isLocalhostName(name: string): boolean {
  return LOCALHOST_NAMES.has(name) || name.endsWith('.localhost');
}

/**
 * The host as Chromium reads it: the WHATWG URL parser turns 0x7f.1, 2130706433, 127.1,
 * %31%32%37.0.0.1, full-width digits and upper case into one canonical form. Callers usually
 * pass a host that is canonical already (a URL's hostname); this makes the check safe when
 * they do not.
 */
export function canonicalHost(host: string): string | undefined {
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  if (bracketed === '' || /[/?#@\\\s]/.test(bracketed)) return undefined;
  try {
    const url = new URL(`http://${bracketed}/`);
    return url.port === '' ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

export function createDestinationCheck(policy: NetPolicy, resolve: Resolver = systemResolver): DestinationCheck {
  return async (rawHost) => {
    const host = canonicalHost(rawHost);
    if (host === undefined) return { allowed: false, host: rawHost, reason: 'invalid-host', detail: `${JSON.stringify(rawHost)} is not a host` };
    const deny = (reason: DestinationDenyReason, detail: string, address?: string): DestinationDecision => ({ allowed: false, host, reason, detail, address });

    if (parseIp(host)) {
      const decision = policy.checkAddress(host);
      return decision.allowed ? { allowed: true, host, addresses: [decision] } : deny(decision.reason, decision.detail, decision.address);
    }

    const name = normaliseHostname(host);
    const trustedHost = policy.allowList.matchesHost(name);
    if (!trustedHost) {
      if (isLocalhostName(name) && !policy.allowPrivate) return deny('localhost-name', `${name} is a loopback name`);
      if (METADATA_HOSTNAMES.includes(name)) return deny('metadata-name', `${name} is a cloud metadata name`);
      // With nothing but the allow-list open, an unlisted name is not even looked up: a lookup
      // alone can carry data out (the name itself is the message).
      if (!policy.allowPublic && !policy.allowPrivate) return deny('not-allow-listed', `${name} is not on the allow-list`);
    }

    let resolved;
    try {
      resolved = await resolve(host);
    } catch (error) {
      return deny('unresolvable', `${name} did not resolve: ${(error as Error).message}`);
    }
    if (resolved.length === 0) return deny('unresolvable', `${name} resolved to no address`);

    const addresses: AllowedAddress[] = [];
    const seen = new Set<string>();
    for (const { address } of resolved) {
      const decision = policy.checkAddress(address, { trustedHost });
      // One bad address denies the name: the check cannot know which one a client would use.
      if (!decision.allowed) return deny(decision.reason, `${name} resolves to ${decision.detail}`, decision.address);
      if (!seen.has(decision.address)) {
        seen.add(decision.address);
        addresses.push(decision);
      }
    }
    return { allowed: true, host, addresses };
  };
}
