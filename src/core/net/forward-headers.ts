/**
 * Header rules for the egress proxy's plain-HTTP path. Hop-by-hop headers (RFC 9110 7.6.1)
 * describe one connection and must not be passed on; Host is rewritten from the request target,
 * so the upstream server sees the host that was checked and not whatever the client wrote.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  // The proxy streams the body at once; an Expect would make the upstream wait for a 100.
  'expect',
]);

export type HeaderMap = Record<string, string | string[]>;

/** Headers to pass on, from a message's rawHeaders; `extraDrop` adds names (lower case). */
export function forwardHeaders(rawHeaders: readonly string[], extraDrop: Iterable<string> = []): HeaderMap {
  const drop = new Set(HOP_BY_HOP);
  for (const name of extraDrop) drop.add(name);
  // Connection may name more headers that belong to this hop only.
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === 'connection') {
      for (const token of rawHeaders[i + 1].split(',')) drop.add(token.trim().toLowerCase());
    }
  }
  const out: HeaderMap = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    const lower = name.toLowerCase();
    if (drop.has(lower)) continue;
    const existing = Object.keys(out).find((key) => key.toLowerCase() === lower);
    if (existing === undefined) out[name] = rawHeaders[i + 1];
    else out[existing] = ([] as string[]).concat(out[existing], rawHeaders[i + 1]);
  }
  return out;
}

/** The request head of an upgrade (WebSocket over a plain proxy request), written raw. */
export function upgradeRequestHead(method: string, path: string, host: string, rawHeaders: readonly string[]): string {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const lower = rawHeaders[i].toLowerCase();
    if (lower === 'host' || lower.startsWith('proxy-')) continue;
    lines.push(`${rawHeaders[i]}: ${rawHeaders[i + 1]}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}
