/**
 * A template version to pin (api.md Part E): `version` in an A1 body, `--version` or
 * `invoice@3` on the command line. Both faces parse it here, so both refuse the same values
 * with the same words, before anything is looked up or rendered.
 */
import { ImprintError } from './errors.js';

/** Versions are numbered from 1 by the store; the upper bound keeps them a 32-bit integer. */
export const MAX_TEMPLATE_VERSION = 2_147_483_647;
const RANGE = `a whole number from 1 to ${MAX_TEMPLATE_VERSION}`;

/** The `version` member of a request body: a JSON integer. */
export function parseTemplateVersion(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_TEMPLATE_VERSION) return value;
  if (value === undefined) throw new ImprintError('INVALID_INPUT', `Missing version: give "version", ${RANGE}.`);
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : JSON.stringify(value) ?? String(value);
  throw new ImprintError('INVALID_INPUT', `Invalid version ${shown}: use ${RANGE} (the versions of a template are listed by GET /api/templates/{id} or \`imprint versions <id>\`).`);
}

/** A version written on the command line ("3"). */
export function parseTemplateVersionText(text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new ImprintError('USAGE', `Invalid version "${text}": use ${RANGE}, e.g. --version 3 or invoice@3.`);
  const version = Number(text.trim());
  if (version < 1 || version > MAX_TEMPLATE_VERSION) throw new ImprintError('USAGE', `Invalid version "${text}": use ${RANGE}.`);
  return version;
}

/**
 * `invoice@3` names version 3 of the template `invoice`. Template ids cannot contain "@"
 * (core/template-id.ts), so the last "@" followed by digits is unambiguous.
 */
export function splitVersionedRef(ref: string): { id: string; version?: number } {
  const match = /^(.+)@([^@]*)$/.exec(ref);
  if (!match) return { id: ref };
  return { id: match[1]!, version: parseTemplateVersionText(match[2]!) };
}
