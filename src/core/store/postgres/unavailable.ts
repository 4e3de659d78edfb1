/**
 * The database out of reach for a moment (restarted, failed over, the network between): every
 * store call that meets it fails with DATABASE_UNAVAILABLE, which the service answers 503 with
 * Retry-After, instead of a bare 500. Nothing needs reopening: pg.Pool drops a broken
 * connection and opens a new one for the next query, so the node serves again as soon as the
 * database is back. Any other database error (a bug, a constraint) is left as it is.
 */
import { ImprintError } from '../../errors.js';
import type { GenerationReservation, Store } from '../types.js';

/** Seconds a client is told to wait: a PostgreSQL restart or a failover takes a few. */
export const DATABASE_RETRY_AFTER_S = 2;

/** Socket errors on the way to the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/**
 * SQLSTATEs of a server going away or not yet back: class 08 (connection exception), 57P01-03
 * (terminated by an administrator or a crash, cannot connect now: starting or shutting down).
 */
const isServerGone = (code: string) => code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code);
/** What node-postgres says when a connection ends under a query, or none can be had in time; these carry no code. */
const DRIVER_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed/i;

export function isDatabaseUnreachable(error: unknown): boolean {
  if (error === null || typeof error !== 'object' || error instanceof ImprintError) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return NETWORK_CODES.has(code) || isServerGone(code);
  return DRIVER_MESSAGES.test((error as Error).message ?? '');
}

export function databaseUnavailable(cause: unknown, where: string): ImprintError {
  return new ImprintError(
    'DATABASE_UNAVAILABLE',
    `The service's database cannot be reached at the moment, so this request was not carried out: nothing of it was stored or counted. Try again in a few seconds.`,
    { cause: Object.assign(cause as object, { database: where }), retryAfterSeconds: DATABASE_RETRY_AFTER_S },
  );
}

/** `error` as the caller should see it: DATABASE_UNAVAILABLE when the database was out of reach, else unchanged. */
export const translateUnreachable = (error: unknown, where: string): unknown => (isDatabaseUnreachable(error) ? databaseUnavailable(error, where) : error);

function guard<A extends unknown[], R>(fn: (...args: A) => Promise<R>, where: string): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (error) {
      throw translateUnreachable(error, where);
    }
  };
}

/** `calls` with each of its functions guarded, still called on `calls` (the job store's calls use `this`). */
function guardEach<T extends object>(calls: T, where: string): T {
  return Object.fromEntries(
    Object.entries(calls).map(([name, value]) => [name, typeof value === 'function' ? guard((value as (...args: unknown[]) => Promise<unknown>).bind(calls), where) : value]),
  ) as T;
}

/** The store with every call (a reservation's commit and release included) guarded as above. */
export function withUnavailableErrors(store: Store, where: string): Store {
  const guarded = { ...guardEach(store, where), jobs: guardEach(store.jobs, where), dashboard: guardEach(store.dashboard, where) } as Store;
  const reserve = guarded.reserveGeneration;
  guarded.reserveGeneration = async (teamId) => {
    const reservation: GenerationReservation = await reserve(teamId);
    return { commit: guard(() => reservation.commit(), where), release: guard(() => reservation.release(), where) };
  };
  return guarded;
}
