/** The request fields of merging (docs/finishing.md#merging): their JSON schema, for the OpenAPI document; core/pdf/merge/parts.ts judges them. */
import { MAX_MERGE_PARTS } from '../../core/limits/merge-limits.js';
import { guideUrl } from '../../core/guides.js';

const mergePart = {
  type: 'object',
  description: 'a PDF fetched by URL (under the same network policy as `url`), or sent as base64',
  additionalProperties: false,
  properties: {
    url: { type: 'string', format: 'uri', description: 'an http(s) address of the PDF' },
    pdf: { type: 'string', contentEncoding: 'base64', description: 'the PDF, base64' },
    name: { type: 'string', maxLength: 200, description: "with pdf: the part's outline entry when the PDF has no Title" },
  },
} as const;

const parts = (where: string) => ({
  type: 'array',
  maxItems: MAX_MERGE_PARTS,
  items: mergePart,
  description: `an extension: PDFs put ${where} the rendered document, each with its own outline entry (at most ${MAX_MERGE_PARTS} parts in prepend and append); see ${guideUrl('finishing', 'merging')}`,
});

export const mergeFields = { prepend: parts('before'), append: parts('after') } as const;

const shownPart = {
  type: 'object',
  description: 'a part as a job shows it: its URL, or its name and size (its bytes are never shown, and dropped from the job once it has finished)',
  properties: { url: { type: 'string' }, name: { type: 'string' }, bytes: { type: 'integer' } },
} as const;

/** A job's `parts` (core/jobs/job-view.ts): what it merges into every row, by name and size. */
export const shownPartsSchema = {
  type: 'object',
  description: 'present when the job merges documents into its rows (prepend/append): each part by URL, or by name and size',
  properties: { prepend: { type: 'array', items: shownPart }, append: { type: 'array', items: shownPart } },
} as const;
