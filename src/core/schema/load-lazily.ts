/**
 * TypeScript, ts-json-schema-generator and Ajv (with its formats) take a second or more to load together, and
 * most commands never need them (`list`, `generate`, the server's other routes). They are
 * required on first use instead of at start-up; all three are CommonJS, so a plain require
 * keeps the functions that use them synchronous.
 */
import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import type * as Generator from 'ts-json-schema-generator';
import type AjvClass from 'ajv';
import type AddFormats from 'ajv-formats';

const requireCjs = createRequire(import.meta.url);

let ts: typeof TS | undefined;
let generator: typeof Generator | undefined;
let ajv: typeof AjvClass | undefined;
let addFormats: typeof AddFormats | undefined;

export const loadTypescript = (): typeof TS => (ts ??= requireCjs('typescript') as typeof TS);
export const loadSchemaGenerator = (): typeof Generator => (generator ??= requireCjs('ts-json-schema-generator') as typeof Generator);
/** Ajv's CommonJS export is the class itself, with `default` pointing at it too. */
export const loadAjv = (): typeof AjvClass => (ajv ??= (requireCjs('ajv') as { default: typeof AjvClass }).default);
/** ajv-formats' plugin (date, date-time, email, uri...), also CommonJS with a `default`. */
export const loadAjvFormats = (): typeof AddFormats => (addFormats ??= (requireCjs('ajv-formats') as { default: typeof AddFormats }).default);
