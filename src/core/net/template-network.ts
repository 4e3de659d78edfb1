/**
 * Which requests of a published template's page may leave it: http(s) to a host the operator
 * allow-listed (a name, or an address inside an allowed range). Everything else is refused in
 * the page (template-route.ts); what is let through still goes through the template proxy,
 * which checks the address it connects to (allowListOnly), so a name that resolves elsewhere
 * gets no further.
 */
import { isIP } from 'node:net';
import type { NetPolicy } from './address-policy.js';

export type TemplateNetwork = (url: URL) => boolean;

/** Undefined when the operator allowed nothing: templates then have no network at all. */
export function templateNetwork(policy: NetPolicy): TemplateNetwork | undefined {
  const list = policy.allowList;
  if (list.names.length + list.suffixes.length + list.ranges.length === 0) return undefined;
  return (url) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    const address = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return isIP(address) ? list.matchesAddress(address) : list.matchesHost(url.hostname);
  };
}
