/**
 * How an error leaves the library. A Node app that does not catch it sees what Node prints for
 * an uncaught error: a source line (the throw statement's, or for a rejected promise the first
 * frame of the error's stack), then the stack. Thrown from inside Imprint, both are ours: a line
 * of the minified dist/, kilobytes long, and frames in our chunks. So every error leaves as
 * Node's own do: from the caller's line. Each public call takes its caller's stack when it is
 * called (after an await, what lies under the call is Node's task queue, not the caller), and a
 * failure is thrown on that stack with the failure's code, message and details. Anything not
 * already an ImprintError is a fault of ours: INTERNAL, the original as its cause.
 */
import { ImprintError, isImprintError } from '../core/errors.js';

type PublicFunction = (...args: never[]) => unknown;

/** An error whose stack starts where `call` was called from; what it says is filled in if the call fails. */
export function callerStack(call: PublicFunction): ImprintError {
  const failure = new ImprintError('INTERNAL', '');
  Error.captureStackTrace(failure, call);
  return failure;
}

/** `failure` saying what `error` says. Its stack is formatted when first read, so with this message. */
function asCallerError(failure: ImprintError, error: unknown): ImprintError {
  const cause = isImprintError(error) ? error.cause : error;
  const said = isImprintError(error)
    ? error
    : new ImprintError('INTERNAL', `Imprint failed unexpectedly: ${error instanceof Error ? error.message : String(error)}. Please report it, with its cause (error.cause).`);
  Object.assign(failure as { -readonly [K in keyof ImprintError]: ImprintError[K] }, { code: said.code, message: said.message, details: said.details });
  if (said.retryAfterSeconds !== undefined) Object.assign(failure, { retryAfterSeconds: said.retryAfterSeconds });
  if (cause !== undefined) Object.defineProperty(failure, 'cause', { value: cause, writable: true, configurable: true });
  return failure;
}

/** Throws `failure` (from callerStack) saying what `error` says. */
export function throwAsCaller(failure: ImprintError, error: unknown): never {
  // A synchronous throw that nothing catches makes Node print the throw statement's line,
  // whatever the stack says, and this statement is in dist/. The string is Node's marker for a
  // throw site whose line it must not print (node_errors.cc GetErrorSource; Node's own lib puts
  // it on its rethrows), written into the thrown expression so it stays on the statement's line
  // in the minified bundle.
  throw [asCallerError(failure, error), 'node-do-not-add-exception-line'][0];
}

/** `implementation` as a public async function whose errors leave from its caller's line. */
export function publicAsync<A extends unknown[], R>(implementation: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  const call = async (...args: A): Promise<R> => {
    const failure = callerStack(call);
    try {
      return await implementation(...args);
    } catch (error) {
      throwAsCaller(failure, error);
    }
  };
  return call;
}
