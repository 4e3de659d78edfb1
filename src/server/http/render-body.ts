/**
 * Reads an A1/A2 body with the core's rules (core/render-request.ts), the ones the CLI applies
 * to its flags, so both faces refuse the same things in the same words. The JSON schema is
 * checked too (attachValidation): its complaint is used only for what core does not judge.
 */
import type { FastifyError, FastifyRequest } from 'fastify';
import { ImprintError } from '../../core/errors.js';
import { parseRenderOptions, type RenderOptions } from '../../core/render-request.js';
import { describeValidation } from './errors.js';

export type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The body as an object, its render options parsed by core; `check` adds the route's own
 * fields (and may wait: A2's url check resolves the host).
 */
export async function readRenderBody<T>(
  request: FastifyRequest,
  check: (body: JsonObject) => T | Promise<T>,
): Promise<{ body: JsonObject; options: RenderOptions; fields: T }> {
  const body = request.body;
  if (!isObject(body)) throw new ImprintError('INVALID_INPUT', 'Invalid body: send a JSON object, e.g. {"props": {...}, "format": "pdf"}.');
  // parseRenderOptions reads only its own fields (format, size, orientation, tagged, deterministic, metadata).
  const options = parseRenderOptions(body);
  const fields = await check(body);
  const schemaError = (request as FastifyRequest & { validationError?: FastifyError }).validationError;
  if (schemaError) throw new ImprintError('INVALID_INPUT', describeValidation(schemaError));
  return { body, options, fields };
}
