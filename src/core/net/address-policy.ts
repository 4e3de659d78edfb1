/**
 * Decides whether a render may open a connection to one IP address, and says why.
 *
 * The default is the one a public service needs: public addresses only. An operator widens it
 * with three settings, in this order of strength:
 *   - `allow`: host names, addresses and CIDRs that are trusted whatever class they are in;
 *   - `allowPrivate`: a trusted internal deployment (or the CLI's --allow-local) may reach
 *     loopback, private, link-local, unique-local and CGNAT addresses;
 *   - `allowPublic: false`: nothing but the allow-list (published templates render with no
 *     network unless the operator allows hosts).
 * Cloud metadata addresses stay denied under every setting except an allow-list entry that
 * names that one address: neither a broad range nor a trusted name opens them by accident.
 */
import { parseAllowList, type AllowList } from './allow-list.js';
import { classifyIp, type IpClass, type IpClassification } from './ip-class.js';

export interface NetPolicyOptions {
  /** Host names, `*.wildcards`, addresses and CIDR ranges the operator trusts. */
  allow?: readonly string[];
  /** Loopback, private, link-local, unique-local and CGNAT addresses become reachable. */
  allowPrivate?: boolean;
  /** Public addresses are reachable (default true); false leaves only the allow-list. */
  allowPublic?: boolean;
}

export type DenyReason =
  | Exclude<IpClass, 'public'>
  | 'not-allow-listed' // public, but the policy allows only the allow-list
  | 'invalid-address';

export type AllowBasis = 'public' | 'allow-list' | 'allow-private';

export type AddressDecision =
  | { allowed: true; address: string; family: 4 | 6; basis: AllowBasis; classification: IpClassification }
  | { allowed: false; address: string; reason: DenyReason; detail: string; classification?: IpClassification };

export interface AddressContext {
  /** The request's host name is on the allow-list: every address it resolves to is trusted. */
  trustedHost?: boolean;
}

export interface NetPolicy {
  readonly allowList: AllowList;
  readonly allowPrivate: boolean;
  readonly allowPublic: boolean;
  checkAddress(address: string, context?: AddressContext): AddressDecision;
}

/** The classes `allowPrivate` opens: the ones an internal network's own services live in. */
export const PRIVATE_CLASSES: ReadonlySet<IpClass> = new Set(['loopback', 'private', 'link-local', 'unique-local', 'carrier-grade-nat']);

function describe(c: IpClassification): string {
  const inner = c.embedded ? ` (${c.embedded.wrapper} form of ${c.embedded.ipv4})` : '';
  return `${c.address}${inner} is ${c.class === 'public' ? 'a public address' : `in the ${c.class} class`}`;
}

export function createNetPolicy(options: NetPolicyOptions = {}): NetPolicy {
  return policyOver(parseAllowList(options.allow), options.allowPrivate ?? false, options.allowPublic ?? true);
}

/**
 * The same allow-list and nothing else: what published templates may reach. A template
 * is someone else's code running on the service: no network at all unless the operator allows
 * hosts.
 */
export function allowListOnly(policy: NetPolicy): NetPolicy {
  return policyOver(policy.allowList, false, false);
}

function policyOver(allowList: AllowList, allowPrivate: boolean, allowPublic: boolean): NetPolicy {

  function checkAddress(address: string, context: AddressContext = {}): AddressDecision {
    const c = classifyIp(address);
    if (!c) return { allowed: false, address, reason: 'invalid-address', detail: `${JSON.stringify(address)} is not an IP address` };
    const allow = (basis: AllowBasis): AddressDecision => ({ allowed: true, address: c.address, family: c.family, basis, classification: c });
    const deny = (reason: DenyReason, why = describe(c)): AddressDecision => ({ allowed: false, address: c.address, reason, detail: why, classification: c });
    // An unwrapped form is allow-listed by its inner address too: ::ffff:10.0.0.5 is 10.0.0.5.
    const forms = c.embedded && c.class !== 'ipv4-embedded' ? [c.address, c.embedded.ipv4] : [c.address];

    if (c.class === 'metadata') {
      return forms.some((f) => allowList.namesAddress(f)) ? allow('allow-list') : deny('metadata');
    }
    if (context.trustedHost || forms.some((f) => allowList.matchesAddress(f))) return allow('allow-list');
    if (c.class === 'public') return allowPublic ? allow('public') : deny('not-allow-listed', `${c.address} is public, and this policy allows only its allow-list`);
    if (allowPrivate && PRIVATE_CLASSES.has(c.class)) return allow('allow-private');
    return deny(c.class);
  }

  return { allowList, allowPrivate, allowPublic, checkAddress };
}
