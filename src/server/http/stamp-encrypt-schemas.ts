/**
 * The JSON schemas of the request fields `stamp` and `encrypt` (docs/finishing.md), for
 * /openapi.json and Fastify's shape check; the rules themselves (values, limits, the refusal
 * with pdfa) are core/pdf/stamp-encrypt-request.ts's.
 */
import { guideUrl } from '../../core/guides.js';
import { DEFAULT_PERMISSIONS, MODIFY_LEVELS, PRINT_LEVELS } from '../../core/pdf/encrypt-options.js';
import { STAMP_DEFAULTS, STAMP_POSITIONS } from '../../core/pdf/stamp-options.js';
import { PAGES_SYNTAX } from '../../core/pdf/stamp-pages.js';

const yesNo = { oneOf: [{ type: 'string', enum: ['yes', 'no'] }, { type: 'boolean' }] };
/** The defaults are core's (each lives once), written in the descriptions as the request writes them. */
const byDefault = (value: string | number | boolean) => `default ${value === true ? 'yes' : value === false ? 'no' : value}`;

export const stampEncryptFields = {
  stamp: {
    description: `an extension: a stamp drawn over the pages as an artifact (tags and outline unchanged): a text such as "DRAFT", or an object with exactly one of text, pdf (base64; its first page) or svg (markup); the service fetches nothing for it. See ${guideUrl('finishing')}`,
    oneOf: [
      { type: 'string' },
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          text: { type: 'string', description: 'real, searchable text in Helvetica Bold (Latin scripts)' },
          pdf: { type: 'string', description: 'a PDF as base64, at most 5 MiB: its first page is the stamp' },
          svg: { type: 'string', description: "an SVG's markup, at most 1 MiB, with width and height or a viewBox" },
          pages: { type: 'string', description: `${PAGES_SYNTAX}; ${byDefault(STAMP_DEFAULTS.pages)}` },
          position: { type: 'string', enum: [...STAMP_POSITIONS], description: byDefault(STAMP_DEFAULTS.position) },
          opacity: { type: 'number', description: `above 0, at most 1; ${byDefault(STAMP_DEFAULTS.opacity)}` },
          rotate: { oneOf: [{ type: 'number' }, { type: 'string', enum: ['diagonal'] }], description: `degrees counter-clockwise, or "diagonal"; ${byDefault(STAMP_DEFAULTS.rotate)}` },
        },
      },
    ],
  },
  encrypt: {
    type: 'object',
    additionalProperties: false,
    description: `an extension: AES-256 (R6) encryption; at least one password; refused with pdfa and einvoice (PDF/A forbids encryption). Passwords are never logged nor shown; a job keeps them only until it finishes. See ${guideUrl('finishing')}`,
    properties: {
      userPassword: { type: 'string', description: 'opens the file with the permissions below' },
      ownerPassword: { type: 'string', description: 'opens it with every right; without one, a random one nobody keeps' },
      permissions: {
        type: 'object',
        additionalProperties: false,
        properties: {
          print: { type: 'string', enum: [...PRINT_LEVELS], description: byDefault(DEFAULT_PERMISSIONS.print) },
          modify: { type: 'string', enum: [...MODIFY_LEVELS], description: byDefault(DEFAULT_PERMISSIONS.modify) },
          copy: { ...yesNo, description: byDefault(DEFAULT_PERMISSIONS.copy) },
          annotate: { ...yesNo, description: byDefault(DEFAULT_PERMISSIONS.annotate) },
        },
      },
    },
  },
} as const;
