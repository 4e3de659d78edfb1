/**
 * Puts one IP address in a class: public, or one of the kinds of address a render must not
 * reach by default. It only names the class; what each class means for a request (denied,
 * allowed by `allowPrivate`, allowed by the allow-list) is address-policy.ts's job.
 *
 * The ranges come from ipaddr.js (its IANA special-purpose tables) rather than regexes of our
 * own: every hand-written SSRF filter we studied missed a range or a spelling. On top of it,
 * this file adds what ipaddr.js does not know: cloud metadata addresses, and how to unwrap
 * the IPv6 forms that carry an IPv4 address.
 */
import ipaddr from 'ipaddr.js';

export type IpClass =
  | 'public'
  | 'loopback'
  | 'private' // RFC 1918
  | 'link-local' // 169.254/16, fe80::/10
  | 'unique-local' // fc00::/7, and the deprecated site-local fec0::/10
  | 'carrier-grade-nat' // 100.64/10
  | 'unspecified' // 0.0.0.0/8, :: (on Linux, connecting to 0.0.0.0 reaches the host itself)
  | 'multicast'
  | 'broadcast'
  | 'reserved' // documentation, benchmarking, IETF protocol assignments, 240/4, non-global IPv6...
  | 'metadata' // cloud instance metadata services
  | 'ipv4-embedded'; // an IPv6 form we refuse to unwrap (6to4, Teredo, IPv4-compatible, SIIT, local NAT64)

/** The class of one address, with the IPv4 address inside an IPv6 wrapper when there is one. */
export interface IpClassification {
  /** Canonical text of the address as parsed (ipaddr.js's toString; zone id kept). */
  address: string;
  family: 4 | 6;
  class: IpClass;
  /** Set when the address wraps an IPv4 address: the class above is then the inner one's. */
  embedded?: { ipv4: string; wrapper: IPv6Wrapper };
}

export type IPv6Wrapper = 'ipv4-mapped' | 'nat64' | 'ipv4-compatible' | 'ipv4-translated' | 'nat64-local' | '6to4' | 'teredo';

/**
 * Cloud metadata endpoints. Most sit in link-local or CGNAT space and are denied anyway; they
 * are named so that `allowPrivate` (a trusted internal deployment) still cannot reach them:
 * a template that reads instance credentials is the classic way from a PDF service into a
 * cloud account.
 */
export const METADATA_ADDRESSES: readonly string[] = [
  '169.254.169.254', // AWS, GCP, Azure, OCI, DigitalOcean, OpenStack, Hetzner...
  '169.254.170.2', // AWS ECS task credentials
  '169.254.170.23', // AWS EKS pod identity agent
  '169.254.0.23', // Tencent Cloud
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud (classic)
  '168.63.129.16', // Azure WireServer: a public address, so only this list denies it
  'fd00:ec2::254', // AWS IMDS over IPv6
  'fd00:ec2::23', // AWS EKS pod identity agent over IPv6
  'fd20:ce::254', // GCP metadata over IPv6
];

const metadataSet = new Set(METADATA_ADDRESSES.map((a) => ipaddr.parse(a).toNormalizedString()));

const IPV4_CLASS: Record<string, IpClass> = {
  unicast: 'public',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade-nat',
  private: 'private',
};

const IPV6_CLASS: Record<string, IpClass> = {
  unspecified: 'unspecified',
  linkLocal: 'link-local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'unique-local',
};

/**
 * Parses an address written the canonical way (what DNS and the WHATWG URL parser give):
 * dotted-quad IPv4 or IPv6, optionally in brackets. Anything else is `undefined`: the legacy
 * spellings (0x7f.1, 2130706433, 0177.0.0.1) are the URL parser's to normalise, never ours,
 * so that there is exactly one reading of an address.
 */
export function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (!bare.includes(':')) return undefined;
  // ipaddr.js reads "::127.0.0.1" as ::ffff:7f00:1 (IPv4-mapped), where the WHATWG parser and
  // Chromium read ::7f00:1 (IPv4-compatible). So IPv6 text is first serialised by the WHATWG
  // parser, which always writes hex, and only then handed to ipaddr.js.
  const [body, zone, ...rest] = bare.split('%');
  if (rest.length > 0 || zone === '') return undefined;
  let hex: string;
  try {
    hex = new URL(`http://[${body}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  if (!ipaddr.IPv6.isValid(hex)) return undefined;
  const ip = ipaddr.IPv6.parse(hex);
  if (zone !== undefined) ip.zoneId = zone;
  return ip;
}

export function isMetadataAddress(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return metadataSet.has(ip.toNormalizedString());
}

function classifyV4(ip: ipaddr.IPv4): IpClass {
  if (isMetadataAddress(ip)) return 'metadata';
  // ipaddr.js's 'reserved', 'as112', 'amt' and anything it adds later: not a web server.
  return IPV4_CLASS[ip.range()] ?? 'reserved';
}

function v4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 address inside an IPv6 wrapper, and which wrapper it is. Only the IPv4-mapped form
 * and the well-known NAT64 prefix are unwrapped and judged by their inner address (see
 * classify): those are the forms a dual-stack socket or an IPv6-only network really uses to
 * reach a public IPv4 host. The inner address of the others is still extracted, for the log.
 */
export function embeddedIPv4(ip: ipaddr.IPv6): { ipv4: ipaddr.IPv4; wrapper: IPv6Wrapper } | undefined {
  const p = ip.parts;
  const range = ip.range();
  if (range === 'ipv4Mapped') return { ipv4: v4FromParts(p[6], p[7]), wrapper: 'ipv4-mapped' };
  if (range === 'rfc6145') return { ipv4: v4FromParts(p[6], p[7]), wrapper: 'ipv4-translated' };
  if (range === 'rfc6052') {
    // 64:ff9b::/96 carries the address in the last 32 bits. The local-use 64:ff9b:1::/48
    // lets each network pick its own prefix length, so where the address sits is unknown.
    if (p[2] === 0) return { ipv4: v4FromParts(p[6], p[7]), wrapper: 'nat64' };
    return { ipv4: v4FromParts(p[6], p[7]), wrapper: 'nat64-local' };
  }
  if (range === '6to4') return { ipv4: v4FromParts(p[1], p[2]), wrapper: '6to4' };
  // Teredo: the client's IPv4 is the last 32 bits, inverted.
  if (range === 'teredo') return { ipv4: v4FromParts(p[6] ^ 0xffff, p[7] ^ 0xffff), wrapper: 'teredo' };
  // ::a.b.c.d (deprecated by RFC 4291); :: and ::1 are the unspecified and loopback addresses.
  if (p.slice(0, 6).every((part) => part === 0) && (p[6] !== 0 || p[7] > 1)) {
    return { ipv4: v4FromParts(p[6], p[7]), wrapper: 'ipv4-compatible' };
  }
  return undefined;
}

/** The wrappers whose inner address decides: connecting to them reaches that IPv4 host. */
const UNWRAPPED: ReadonlySet<IPv6Wrapper> = new Set(['ipv4-mapped', 'nat64']);

function classifyV6(ip: ipaddr.IPv6): Pick<IpClassification, 'class' | 'embedded'> {
  if (isMetadataAddress(ip)) return { class: 'metadata' };
  const inner = embeddedIPv4(ip);
  if (inner) {
    const embedded = { ipv4: inner.ipv4.toString(), wrapper: inner.wrapper };
    // 6to4 and Teredo send the packet through a relay to the inner address, IPv4-compatible
    // and SIIT are obsolete: no public site needs them, so they are refused whatever they carry.
    return { class: UNWRAPPED.has(inner.wrapper) ? classifyV4(inner.ipv4) : 'ipv4-embedded', embedded };
  }
  const named = IPV6_CLASS[ip.range()];
  if (named) return { class: named };
  // Global unicast is 2000::/3 only; ipaddr.js calls everything it has no table for 'unicast'.
  if (ip.range() === 'unicast' && (ip.parts[0] & 0xe000) === 0x2000) return { class: 'public' };
  return { class: 'reserved' };
}

/** Classifies one address; `undefined` when the text is not a canonical IPv4 or IPv6 address. */
export function classifyIp(text: string): IpClassification | undefined {
  const ip = parseIp(text);
  if (!ip) return undefined;
  if (ip.kind() === 'ipv4') return { address: ip.toString(), family: 4, class: classifyV4(ip as ipaddr.IPv4) };
  return { address: ip.toString(), family: 6, ...classifyV6(ip as ipaddr.IPv6) };
}
