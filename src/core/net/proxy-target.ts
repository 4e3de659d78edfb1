/**
 * Reads the target of a request made to the egress proxy: the `host:port` of a CONNECT line,
 * or the absolute http:// URL of a plain request. Both are read by the WHATWG parser later
 * (canonicalHost), so anything these let through is normalised the way Chromium wrote it.
 */

/** `host:port` of a CONNECT line, read the way a URL's authority is read. */
export function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:/?#@\\\s[\]]+):(\d{1,5})$/.exec(authority);
  if (!match) return undefined;
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { host: match[1], port } : undefined;
}

/** The target of an absolute-form request: only http:// is proxied in the clear. */
export function parseProxyTarget(requestUrl: string | undefined): URL | undefined {
  if (!requestUrl || !/^http:\/\//i.test(requestUrl)) return undefined;
  try {
    const url = new URL(requestUrl);
    return url.protocol === 'http:' && url.username === '' && url.password === '' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The port of an http:// target, 80 when the URL leaves it out. */
export const urlPort = (url: URL) => (url.port === '' ? 80 : Number(url.port));
