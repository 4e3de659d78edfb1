/**
 * The service's log (Fastify's pino): JSON lines when stdout is a file, a pipe or a log
 * collector; human-readable lines when it is a terminal. Secrets never reach it: request bodies
 * (props, HTML, a template bundle) are never logged, request headers are not logged at all, and
 * the fields below are masked in case a future log line carries one.
 */
import type { FastifyServerOptions } from 'fastify';

/** Pino paths masked in every log line: API keys, webhook secrets, props and bodies. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'apiKey',
  '*.apiKey',
  'secret',
  '*.secret',
  'webhookSecret',
  '*.webhookSecret',
  'props',
  '*.props',
  'body',
  '*.body',
];

export const REDACTION = { paths: REDACTED_PATHS, censor: '[redacted]' };

export interface ServeLogSettings {
  level: string;
  /** Pretty lines: when stdout is a terminal. */
  pretty: boolean;
}

export function serveLoggerOptions(settings: ServeLogSettings): FastifyServerOptions['logger'] {
  if (!settings.pretty) return { level: settings.level };
  return {
    level: settings.level,
    // pino-pretty runs in a worker thread of pino's, off the request path.
    transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', colorize: true } },
  };
}

/**
 * What the log keeps of a refused request (4xx). Its message helps the operator, except one
 * about props: a wrong prop is quoted in it ("got \"...\""), and props are the caller's data.
 * Those go to the caller only; the log keeps the code, and the request id finds the rest.
 */
export function refusalForLog(error: unknown, message: string, details: string | undefined): { code?: string; error: string; details?: string } {
  const code = (error as { code?: unknown })?.code;
  if (code === 'INVALID_INPUT') return { code, error: 'the props or body were refused (the message, which may quote props, went to the caller only)' };
  return { ...(typeof code === 'string' ? { code } : {}), error: message, details };
}
