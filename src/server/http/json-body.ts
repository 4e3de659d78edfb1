/**
 * The service's JSON body parser. It takes the place of Fastify's, which refuses a body holding
 * a `__proto__` key (or a `constructor` holding `prototype`) as it should, but in the words of a
 * syntax error, "not valid JSON": a client with such a key in its props (a careless copy of an
 * object, a fuzzer) learns nothing of where it is. The same bodies are refused here, naming the
 * key's place in the body, as every other refusal of a body does (api.md A5).
 */
import type { FastifyInstance } from 'fastify';
import { ImprintError } from '../../core/errors.js';

/** Fastify's messages for these, as the service has always answered them. */
const EMPTY_BODY = 'The body is empty: send a JSON object.';
const NOT_JSON = 'The body is not valid JSON: check its syntax (the Content-Type says application/json).';

/**
 * The place of the first key that could change what objects inherit if the body were merged
 * into another object: `name.__proto__`, `rows[2].constructor`; undefined when there is none.
 */
export function prototypeKeyPath(value: unknown, where = ''): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = prototypeKeyPath(value[i], `${where}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const at = where ? `${where}.${key}` : key;
    const inner = (value as Record<string, unknown>)[key];
    if (key === '__proto__') return at;
    if (key === 'constructor' && inner !== null && typeof inner === 'object' && Object.hasOwn(inner, 'prototype')) return at;
    const found = prototypeKeyPath(inner, at);
    if (found) return found;
  }
  return undefined;
}

/**
 * Whether the text may hold such a key: only then is the parsed body walked. An escaped key
 * ("\u005f_proto__") is found by the backslash-u.
 */
const MAY_HOLD_PROTOTYPE_KEY = /__proto__|constructor|\\u/;

export function parseJsonBody(text: string): unknown {
  if (text.length === 0) throw new ImprintError('INVALID_INPUT', EMPTY_BODY);
  let body: unknown;
  try {
    // JSON.parse makes a `__proto__` key an own property, never the prototype: walked below.
    body = JSON.parse(text);
  } catch (error) {
    throw new ImprintError('INVALID_INPUT', NOT_JSON, { cause: error });
  }
  const at = MAY_HOLD_PROTOTYPE_KEY.test(text) ? prototypeKeyPath(body) : undefined;
  if (at === undefined) return body;
  const key = at.endsWith('constructor') ? 'constructor' : '__proto__';
  const what = `a key named "${key}"${key === 'constructor' ? ' holding "prototype"' : ''} is not accepted (merged into an object it would change what the object inherits); rename or remove it.`;
  throw new ImprintError('INVALID_INPUT', at === key ? `Invalid body: "${key}": ${what}` : `Invalid ${at}: ${what}`);
}

/** In the place of Fastify's own application/json parser, with the same body limits. */
export function installJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    try {
      done(null, parseJsonBody(text as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
