/**
 * What `imprint generate` and its thin path to a running renderer (renderer/client/fast-render.ts)
 * both need: the default output name and the warning for a page's refused requests. Its own
 * file, so the thin path loads these without the command (commander, the backends).
 */
import type { EgressDenial } from '../../core/net/egress-proxy.js';
import { ALLOW_LOCAL_FLAG } from '../../core/allow-local-flag.js';
import { warn } from '../ui/status.js';

export function defaultName(flags: { html?: string; url?: string }): string {
  if (flags.html && flags.html !== '-') return flags.html.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || 'document';
  if (flags.url) {
    try {
      return new URL(flags.url).hostname || 'document';
    } catch {
      return 'document';
    }
  }
  return 'document';
}

/** One line per destination a page was refused (a page may ask for it many times). */
export function reportRefusal(told: Set<string>) {
  return (denial: EgressDenial) => {
    const where = `${denial.host}:${denial.port}`;
    if (told.has(where)) return;
    told.add(where);
    const why =
      denial.reason === 'metadata' || denial.reason === 'metadata-name'
        ? 'cloud metadata is never reachable'
        : denial.reason === 'unresolvable' || denial.reason === 'invalid-host' || denial.reason === 'bad-request'
          ? 'it could not be resolved'
          : `pass ${ALLOW_LOCAL_FLAG} to let the page reach this machine and its network`;
    warn(`The page asked for ${where}, which was refused: ${why}.`);
  };
}
