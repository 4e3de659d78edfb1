/**
 * Name resolution for the egress check, behind a function type so tests can hand in a table
 * instead of DNS. The system resolver asks for every address (`all: true`) because the check
 * must see all of them: a name that resolves to one public and one private address is denied,
 * or an attacker would only need the connection to pick the second one.
 */
import { promises as dns } from 'node:dns';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

type LookupAll = (hostname: string, options: { all: true; verbatim: true }) => Promise<{ address: string; family: number }[]>;

/** Resolves with the operating system's resolver (getaddrinfo: /etc/hosts, then DNS). */
export function createSystemResolver(lookup: LookupAll = dns.lookup as LookupAll): Resolver {
  return async (hostname) => {
    // verbatim: keep the order the system gives, which is the order a client would try.
    const results = await lookup(hostname, { all: true, verbatim: true });
    return results.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
  };
}

export const systemResolver: Resolver = createSystemResolver();
