/**
 * The outbound-network policy of a render, which keeps a document off the private network and
 * cloud metadata: what the browser launch and the server import. See docs/security.md for what
 * it covers and what is still open.
 */
export { allowListOnly, createNetPolicy, PRIVATE_CLASSES, type AddressDecision, type AllowBasis, type DenyReason, type NetPolicy, type NetPolicyOptions } from './address-policy.js';
export { parseAllowList, type AllowList } from './allow-list.js';
export { EGRESS_LOCKDOWN_FLAGS, EGRESS_PROFILE_PREFERENCES, egressChromiumArgs } from './chromium-flags.js';
export {
  canonicalHost,
  createDestinationCheck,
  METADATA_HOSTNAMES,
  type AllowedAddress,
  type DestinationCheck,
  type DestinationDecision,
  type DestinationDenyReason,
} from './destination-check.js';
export { directDialer, type Dialer, type DialTarget } from './dial.js';
export { startEgressProxy, type EgressDenial, type EgressProxy, type EgressProxyOptions } from './egress-proxy.js';
export { classifyIp, METADATA_ADDRESSES, type IpClass, type IpClassification } from './ip-class.js';
export { pageRequestVerdict, type PageRequest, type PageRequestVerdict } from './page-request-policy.js';
export { writeEgressProfilePreferences } from './profile-preferences.js';
export { createSystemResolver, systemResolver, type ResolvedAddress, type Resolver } from './resolver.js';
export { ALLOWED_URL_SCHEMES, checkUrl, DENIED_DESTINATION_MESSAGE, parseHttpUrl, type UrlDecision, type UrlDenyReason } from './url-policy.js';
