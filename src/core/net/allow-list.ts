/**
 * The operator's allow-list: host names (`assets.example.com`), wildcards (`*.example.com`,
 * which matches every name below example.com but not example.com itself), single addresses
 * and CIDR ranges. One list in one format, so a flag, a config file and an environment
 * variable all say the same thing.
 *
 * Entries are normalised with the same WHATWG parser that normalises request URLs (lower
 * case, IDNA to punycode, trailing dot dropped), so an entry matches however a page spells
 * the name.
 */
import ipaddr from 'ipaddr.js';
import { usageError } from '../errors.js';
import { parseIp } from './ip-class.js';

export interface AllowList {
  /** Normalised exact names and wildcard suffixes (".example.com"), for logs and tests. */
  readonly names: readonly string[];
  readonly suffixes: readonly string[];
  readonly ranges: readonly string[];
  matchesHost(hostname: string): boolean;
  /** Whether a canonical address is inside one of the ranges. */
  matchesAddress(address: string): boolean;
  /** Whether the list names exactly this one address (a /32 or /128): how metadata is allowed. */
  namesAddress(address: string): boolean;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Lower case, no trailing dot, punycode: the form the URL parser gives a request's host. */
export function normaliseHostname(hostname: string): string {
  const lower = hostname.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

function parseName(entry: string): string | undefined {
  // The URL parser is the only place allowed to decide what a host name means.
  if (/[/?#@\\:\s%]/.test(entry) || entry === '') return undefined;
  try {
    const host = new URL(`http://${entry}/`).hostname;
    return parseIp(host) ? undefined : normaliseHostname(host);
  } catch {
    return undefined;
  }
}

function parseRange(entry: string): Range | undefined {
  const [addressText, prefixText, ...rest] = entry.split('/');
  if (rest.length > 0) return undefined;
  const address = parseIp(addressText);
  if (!address) return undefined;
  const max = address.kind() === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return [address, max];
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return undefined;
  return [address, Number(prefixText)];
}

function sameFamilyMatch(ip: ipaddr.IPv4 | ipaddr.IPv6, [base, bits]: Range): boolean {
  return ip.kind() === base.kind() && ip.match(base, bits);
}

/** Parses the operator's entries; throws a usage error naming every entry it cannot read. */
export function parseAllowList(entries: readonly string[] = []): AllowList {
  const names: string[] = [];
  const suffixes: string[] = [];
  const ranges: Range[] = [];
  const bad: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    const range = parseRange(entry);
    if (range) {
      ranges.push(range);
      continue;
    }
    const wildcard = entry.startsWith('*.');
    const name = parseName(wildcard ? entry.slice(2) : entry);
    if (!name || name.includes('*')) bad.push(raw);
    else if (wildcard) suffixes.push(`.${name}`);
    else names.push(name);
  }
  if (bad.length > 0) {
    throw usageError(
      `Cannot read network allow-list entr${bad.length === 1 ? 'y' : 'ies'} ${bad.map((b) => JSON.stringify(b)).join(', ')}: ` +
        'use a host name (assets.example.com), a wildcard (*.example.com), an address (10.0.0.5) or a CIDR range (10.0.0.0/8).',
    );
  }
  return {
    names,
    suffixes,
    ranges: ranges.map(([ip, bits]) => `${ip.toString()}/${bits}`),
    matchesHost(hostname) {
      const host = normaliseHostname(hostname);
      return names.includes(host) || suffixes.some((suffix) => host.endsWith(suffix));
    },
    matchesAddress(address) {
      const ip = parseIp(address);
      return ip !== undefined && ranges.some((range) => sameFamilyMatch(ip, range));
    },
    namesAddress(address) {
      const ip = parseIp(address);
      if (!ip) return false;
      const max = ip.kind() === 'ipv4' ? 32 : 128;
      return ranges.some(([base, bits]) => bits === max && sameFamilyMatch(ip, [base, bits]));
    },
  };
}
