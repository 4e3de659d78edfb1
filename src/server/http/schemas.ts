/**
 * The JSON schemas of the HTTP contract (api.md). Fastify checks request shapes with them and
 * @fastify/swagger turns them into /openapi.json; the finer rules (a DocumentSize's grammar,
 * the format names) stay in core/render-request.ts, which the handlers call, so they are
 * written once. Names and fields of Part A must match shared/spec/api.md exactly.
 */
import { WIRE_ERROR_CODES } from '../../core/errors.js';
import { OUTPUT_FORMATS } from '../../core/render-request.js';
import { NAMED_SIZES, ORIENTATIONS } from '../../core/page-size.js';
import { TEMPLATE_ID_RULES } from '../../core/template-id.js';
import { guideUrl } from '../../core/guides.js';
import { mergeFields } from './merge-schema.js';

/** A5's object; `code` is this service's addition, listed in no answer of Part A, so `required` stays A5's. */
export const errorSchema = {
  type: 'object',
  description: 'What went wrong and, where the caller can fix it, how (api.md A5).',
  required: ['error'],
  properties: {
    error: { type: 'string', description: 'for a person: what went wrong and how to fix it' },
    code: {
      type: 'string',
      enum: [...WIRE_ERROR_CODES],
      description: `for a program: the kind of failure, stable across versions (${guideUrl('api', 'error-codes')} lists each code with its status); present on every error this service answers`,
    },
    requestId: { type: 'string', description: "the request's id (also its x-request-id header): where the service's log tells more" },
  },
} as const;

const errorResponse = (description: string) => ({ ...errorSchema, description });

export const documentSizeSchema = {
  type: 'string',
  description: `DocumentSize (api.md A4): ${Object.keys(NAMED_SIZES).join(', ')}, or "<width><unit> <height><unit>" with units in, cm, mm or px.`,
  examples: ['A4', 'letter', '8.5in 11in', '210mm 297mm'],
} as const;

/** Extensions (docs/determinism.md): reproducible bytes and the PDF's Info fields. */
const documentFields = {
  deterministic: {
    type: ['boolean', 'integer'],
    description: 'an extension: same input, same bytes. true dates the PDF by the template version (A1) or the content (A2); an integer gives the date as seconds since 1970 (SOURCE_DATE_EPOCH)',
  },
  metadata: {
    type: 'object',
    description: "an extension: the PDF's Info fields, each over the template's own `metadata`",
    additionalProperties: false,
    properties: {
      title: { type: 'string' },
      author: { type: 'string' },
      subject: { type: 'string' },
      keywords: { oneOf: [{ type: 'string', description: 'comma-separated' }, { type: 'array', items: { type: 'string' } }] },
      language: { type: 'string', description: 'a BCP 47 language tag, e.g. en-GB' },
      creator: { type: 'string', description: 'default: Imprint and its version' },
    },
  },
  pdfa: { type: 'string', enum: ['2b', '3b'], description: `an extension: a PDF/A-2b or -3b (sRGB output intent, XMP metadata, document ID); see ${guideUrl('einvoice')}` },
  einvoice: { type: 'string', enum: ['factur-x', 'zugferd'], description: "an extension, templates only: a Factur-X / ZUGFeRD PDF/A-3b embedding the CII XML of the template's `einvoice` mapping" },
  flatten: { type: 'boolean', description: "an extension, templates only: the template's <Field>s drawn into the pages as text, no fillable form left; default false" },
  einvoiceProfile: { type: 'string', enum: ['minimum', 'basic-wl', 'basic', 'en16931', 'extended', 'xrechnung'], description: 'with einvoice: the Factur-X profile, or XRechnung (default en16931)' },
} as const;

/** The fields A1 and A2 share: format, size, orientation (api.md A1/A2, defaults in Part B). */
export const outputFields = {
  format: { type: 'string', enum: [...OUTPUT_FORMATS], default: 'pdf', description: 'the result form (api.md A3)' },
  size: documentSizeSchema,
  orientation: { type: 'string', enum: [...ORIENTATIONS] },
  tagged: { type: 'boolean', description: 'an extension: a tagged (accessible) PDF, about 40 % slower and larger; default false' },
  ...documentFields,
  ...mergeFields,
} as const;

/** A3: the same 200 answer for A1 and A2, by Content-Type. */
export const documentResponse = {
  description: 'The document in the form `format` asks for (api.md A3).',
  content: {
    'application/pdf': { schema: { type: 'string', format: 'binary', description: 'format pdf (or omitted): the PDF bytes' } },
    'application/json': {
      schema: {
        oneOf: [
          {
            type: 'object',
            description: 'format base64',
            required: ['data'],
            additionalProperties: false,
            properties: { data: { type: 'string', description: 'the PDF, base64' } },
          },
          {
            type: 'object',
            description: 'format json',
            required: ['url'],
            additionalProperties: false,
            properties: { url: { type: 'string', format: 'uri', description: 'an absolute URI the PDF can be downloaded from (GET /api/files/{token})' } },
          },
        ],
      },
    },
  },
} as const;

/** Every error status a render can answer (api.md A1, A2 and Part B). */
export const renderErrorResponses = {
  400: errorResponse('Invalid body; `error` names the offending field (props nested too deep name the limit).'),
  401: errorResponse('Missing, malformed or unknown API key.'),
  413: errorResponse('Body too large.'),
  415: errorResponse('Content-Type is not application/json.'),
  422: errorResponse('The generation limit is exceeded, or the document has more pages or bytes than this service returns (the limit is named).'),
  500: errorResponse('Internal error.'),
  504: errorResponse('The render ran past its time limit.'),
} as const;

export const authErrorResponses = {
  401: errorResponse('Missing, malformed or unknown API key.'),
  500: errorResponse('Internal error.'),
} as const;

/** A2: the url's destination is refused by the operator's network policy; the message says nothing about it. */
export const urlDeniedResponse = errorResponse("The url's destination is not allowed by this service's network policy.");

export const notFoundResponse = errorResponse('No such template for this team.');
export const badRequestResponse = errorResponse('Invalid request; `error` says which field.');
export const tooLargeResponse = errorResponse('Body too large.');
export const mediaTypeResponse = errorResponse('Content-Type is not application/json.');

export const templateIdParam = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', description: 'the template\'s custom id or its UUID' } },
} as const;

export const templateIdSchema = {
  type: 'string',
  description: `the template's custom id: ${TEMPLATE_ID_RULES}`,
  minLength: 1,
  maxLength: 128,
} as const;

export const timestamp = { type: 'string', format: 'date-time' } as const;

/** A publish's answer (201), which a rollback gives too. */
export const publishedSchema = {
  type: 'object',
  required: ['id', 'uuid', 'version', 'publishedAt'],
  properties: { id: { type: 'string' }, uuid: { type: 'string', format: 'uuid' }, version: { type: 'integer' }, publishedAt: timestamp },
} as const;
