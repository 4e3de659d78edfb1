/**
 * Checks props against a template's stored JSON Schema before any browser work, so a wrong
 * prop is answered with the path to fix (400 from the service, exit 1 from the CLI) instead
 * of a PDF that looks wrong.
 */
import type { default as Ajv, ValidateFunction } from 'ajv';
import { ImprintError } from '../errors.js';
import { formatSchemaErrors } from './format-errors.js';
import { loadAjv, loadAjvFormats } from './load-lazily.js';

/** A message lists this many wrong paths and counts the rest. */
export const MAX_LISTED_ERRORS = 10;

let ajv: Ajv | undefined;
// strict: false because a schema derived from a TypeScript type may carry annotations
// (descriptions of aliases, `markdownDescription`) that Ajv's strict mode would refuse.
// validateSchema: false skips checking the schema against the JSON Schema meta-schema, which
// compiles the meta-schema first: two thirds of the first validation's time (about 25 ms on
// a cold render's critical path). Ajv still refuses a keyword whose value has the wrong type
// (`type: "strin"`, `required: "x"`) when it compiles.
// Ajv knows no `format` by itself (a JSDoc `@format date` would be ignored, with a warning on
// stderr); ajv-formats gives it the standard ones (date, date-time, email, uri...), checked for real.
const validators = () => (ajv ??= loadAjvFormats()(new (loadAjv())({ allErrors: true, verbose: true, strict: false, validateSchema: false })));

/** Compiling a schema costs far more than using it; a render reuses its template's. */
const compiled = new Map<string, ValidateFunction>();
const CACHE_SIZE = 64;

function validatorFor(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    try {
      validate = validators().compile(schema);
    } catch (error) {
      throw new ImprintError('INVALID_INPUT', `The template's props schema is not a valid JSON Schema (${(error as Error).message}). Publish the template again.`, { cause: error });
    }
    if (compiled.size >= CACHE_SIZE) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, validate);
  }
  return validate;
}

/** The wrong paths, one line each; empty when the props match. */
export function propsErrors(schema: object, props: unknown): string[] {
  const validate = validatorFor(schema);
  return validate(props) ? [] : formatSchemaErrors(validate.errors ?? []);
}

/**
 * Throws INVALID_INPUT naming every wrong path (`services[2].rate: expected number, got "12"`).
 * `what` names the props in the message, e.g. `the props of template "invoice"`.
 */
export function validateProps(schema: object, props: unknown, what = 'The props'): void {
  const errors = propsErrors(schema, props);
  if (errors.length === 0) return;
  const listed = errors.slice(0, MAX_LISTED_ERRORS);
  const more = errors.length > listed.length ? `; and ${errors.length - listed.length} more` : '';
  const count = errors.length === 1 ? '1 error' : `${errors.length} errors`;
  // The message names the paths (the service sends only the message); past the cap the
  // CLI's details show the full list.
  throw new ImprintError('INVALID_INPUT', `${what} do not match the template's props type (${count}): ${listed.join('; ')}${more}.`, {
    details: more ? errors.join('\n') : undefined,
  });
}
