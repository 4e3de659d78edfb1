/**
 * What the log keeps of a request's URL. Some paths carry a secret (a download token in
 * /api/files/{token}: whoever has it downloads the PDF), so the logged URL is rebuilt from the
 * route that matched, after the router decoded the path, not from the raw URL: `/api/%66iles/x`,
 * `/api/fil%65s/x?y=1` and `/api/files/x` are one route and are logged alike. A route marks
 * its secret parameters in its config (`config: { secretParams: ['token'] }`).
 *
 * A request no route matched (`/api/files//x`, `/API/files/x`) was still meant for one: its
 * path is decoded, its slashes collapsed and its case folded, and anything past the static
 * start of a secret-bearing route (`/api/files/`) is redacted.
 */
import type { FastifyRequest } from 'fastify';

const SECRET_PARAMS = 'secretParams';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's path parameters that are secrets: logged as [name]. */
    secretParams?: string[];
  }
}

export interface SecretRoutes {
  /** Called for every route as it is added (Fastify's onRoute hook). */
  add(route: { url: string; config?: unknown }): void;
  /** The URL to log for this request. */
  urlOf(request: Pick<FastifyRequest, 'url'> & { routeOptions?: { url?: string; config?: unknown }; params?: unknown }): string;
}

const secretParamsOf = (config: unknown): string[] => {
  const names = (config as Record<string, unknown> | undefined)?.[SECRET_PARAMS];
  return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [];
};

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** A path as a client may have meant it: decoded, no doubled slashes, lower case. */
const normalised = (url: string) => decoded(url.split(/[?#]/)[0]).replace(/\/{2,}/g, '/').toLowerCase();

export function secretRoutes(): SecretRoutes {
  /** The start of each secret-bearing route up to its first secret, lower case, as a pattern: `/api/files/`. */
  const prefixes = new Map<string, RegExp>();
  return {
    add(route) {
      const secrets = secretParamsOf(route.config);
      if (secrets.length === 0) return;
      const first = Math.min(...secrets.map((name) => route.url.indexOf(`:${name}`)).filter((at) => at >= 0));
      if (!Number.isFinite(first)) return;
      const start = route.url.slice(0, first).toLowerCase();
      // Parameters before the secret (`/api/things/:id/keys/`) match any one segment.
      const pattern = start.split(/:\w+/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*');
      prefixes.set(start, new RegExp(`^${pattern}`));
    },
    urlOf(request) {
      const pattern = request.routeOptions?.url;
      const secrets = secretParamsOf(request.routeOptions?.config);
      if (pattern !== undefined && secrets.length > 0) {
        // The route's own path with its parameters filled in, the secret ones as [name]; no query.
        const params = (request.params ?? {}) as Record<string, string>;
        return pattern.replace(/:(\w+)/g, (_, name: string) => (secrets.includes(name) ? `[${name}]` : encodeURIComponent(params[name] ?? '')));
      }
      if (pattern === undefined && prefixes.size > 0) {
        const path = normalised(request.url);
        for (const [start, pattern] of prefixes) if (pattern.test(path)) return `${start}[redacted]`;
      }
      return request.url;
    },
  };
}
