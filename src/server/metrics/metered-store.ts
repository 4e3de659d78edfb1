/**
 * The store with every operation timed and its failures counted, by operation name
 * (authenticateKey, reserveGeneration, issueFile...). A generation reservation's commit and
 * release are operations of their own. Answers that are not failures of the store (an
 * unknown template, a team over its limit) are not counted as errors.
 */
import { isImprintError } from '../../core/errors.js';
import type { Store } from '../../core/store/index.js';
import { isStorageUnavailable } from '../../core/store/objects/unavailable.js';
import { isStorageFull } from '../../core/store/storage-full.js';
import type { Metrics } from './metrics.js';

type AnyFunction = (...args: unknown[]) => unknown;

function errorKind(error: unknown): string | undefined {
  if (isStorageFull(error)) return 'storage-full';
  if (isStorageUnavailable(error)) return 'storage-unavailable';
  if (isImprintError(error) && error.httpStatus < 500) return undefined;
  return 'error';
}

export function meteredStore(store: Store, metrics: Metrics): Store {
  function timed(operation: string, fn: AnyFunction): AnyFunction {
    return async function (this: unknown, ...args: unknown[]) {
      const end = metrics.store.duration.startTimer({ operation });
      try {
        const value = await fn.apply(this, args);
        // An operation may hand back an object with operations of its own (a reservation's
        // commit and release).
        return value && typeof value === 'object' && !Buffer.isBuffer(value) ? withTimedMethods(`${operation}.`, value as Record<string, unknown>) : value;
      } catch (error) {
        const kind = errorKind(error);
        if (kind) metrics.store.errors.inc({ operation, kind });
        throw error;
      } finally {
        end();
      }
    };
  }

  function withTimedMethods<T extends Record<string, unknown>>(prefix: string, target: T): T {
    // Only plain objects of the store's own (a reservation); results such as rows and arrays pass as they are.
    if (Array.isArray(target) || Object.getPrototypeOf(target) !== Object.prototype) return target;
    const methods = Object.entries(target).filter(([, value]) => typeof value === 'function');
    if (methods.length === 0) return target;
    return { ...target, ...Object.fromEntries(methods.map(([name, fn]) => [name, timed(`${prefix}${name}`, fn as AnyFunction)])) };
  }

  const wrapped = { ...store } as Record<string, unknown>;
  for (const [name, value] of Object.entries(store)) {
    if (typeof value === 'function' && name !== 'close') wrapped[name] = timed(name, value as AnyFunction);
  }
  return wrapped as unknown as Store;
}
