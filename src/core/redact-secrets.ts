/**
 * Secrets out of text a person or a log will read (issue 41, case 9): an error message that
 * quotes a service's answer (a gateway that echoes the request quotes its `authorization`
 * header), a URL given with `user:password@`. What is redacted: bearer tokens, Imprint's API
 * keys (imp_...), the value of an authorization header, and a URL's user information.
 */

const REDACTED = '[redacted]';

/** `text` with every bearer token, Imprint key, authorization header value and URL password replaced by [redacted]. */
export function redactSecrets(text: string): string {
  return text
    .replace(/(authorization["']?\s*[:=]\s*["']?)(?:bearer|basic|token)?\s*[^\s"',;}]+/gi, `$1${REDACTED}`)
    .replace(/\bbearer\s+[A-Za-z0-9._~+/=-]+/gi, `Bearer ${REDACTED}`)
    .replace(/\bimp_[A-Za-z0-9_-]+/g, `imp_${REDACTED}`)
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, `$1${REDACTED}@`);
}

/** `url` without the user information a person may have typed into it (`https://user:pass@host` -> `https://host`). */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return redactSecrets(url);
  }
}
