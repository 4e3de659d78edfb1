/**
 * The `optimizeImages` request field (docs/templates.md#file-size): its JSON schema, for the OpenAPI document; core/render/images/option.ts judges it.
 * No `default` keywords: Ajv's strict mode refuses them under oneOf (the defaults are in the descriptions).
 */
import { MAX_DPI_RANGE, OPTIMIZE_IMAGES_DEFAULTS, QUALITY_RANGE } from '../../core/render/images/option.js';
import { guideUrl } from '../../core/guides.js';

export const imageFields = {
  optimizeImages: {
    description: `an extension: smaller files. Images are downscaled to the resolution they are printed at and photos re-encoded as JPEG before printing; identical images are stored once; SVG, line art and transparent images stay as they are or PNG. true for the defaults; see ${guideUrl('templates', 'file-size')}`,
    oneOf: [
      { type: 'boolean' },
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          maxDpi: { type: 'integer', minimum: MAX_DPI_RANGE[0], maximum: MAX_DPI_RANGE[1], description: `image pixels per printed inch at most; default ${OPTIMIZE_IMAGES_DEFAULTS.maxDpi}` },
          quality: { type: 'integer', minimum: QUALITY_RANGE[0], maximum: QUALITY_RANGE[1], description: `JPEG quality of re-encoded photos; default ${OPTIMIZE_IMAGES_DEFAULTS.quality}` },
        },
      },
    ],
  },
} as const;
