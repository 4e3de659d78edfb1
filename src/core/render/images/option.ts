/**
 * The `optimizeImages` request option (docs/templates.md#file-size): `true` for the defaults, or
 * `{ maxDpi, quality }`. Images are downscaled to `maxDpi` at the size they are printed and
 * photos re-encoded as JPEG at `quality` before the print (optimize-in-page.ts).
 *
 * 150 dpi is what WeasyPrint's --optimize-images and most print shops call "screen and office
 * print" quality; 80 is the JPEG quality above which file size grows fast for little to see.
 */
import { ImprintError } from '../../errors.js';

export interface OptimizeImages {
  /** Image pixels per printed inch at most. */
  maxDpi: number;
  /** JPEG quality of re-encoded photos, 1..100. */
  quality: number;
}

export const OPTIMIZE_IMAGES_DEFAULTS: OptimizeImages = { maxDpi: 150, quality: 80 };
export const MAX_DPI_RANGE = [36, 1200] as const;
export const QUALITY_RANGE = [1, 100] as const;

const HELP = 'use true, or an object such as {"maxDpi": 150, "quality": 80}';

function whole(field: string, value: unknown, [low, high]: readonly [number, number]): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < low || value > high) {
    throw new ImprintError('USAGE', `Invalid optimizeImages.${field} ${JSON.stringify(value)}: expected a whole number from ${low} to ${high}.`);
  }
  return value;
}

/** `false` means off (undefined); anything but true, false or an object of the two fields is refused. */
export function parseOptimizeImages(value: unknown): OptimizeImages | undefined {
  if (value === false) return undefined;
  if (value === true) return { ...OPTIMIZE_IMAGES_DEFAULTS };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ImprintError('USAGE', `Invalid optimizeImages ${JSON.stringify(value)}: ${HELP}.`);
  }
  const given = value as Record<string, unknown>;
  const unknown = Object.keys(given).filter((key) => key !== 'maxDpi' && key !== 'quality');
  if (unknown.length > 0) throw new ImprintError('USAGE', `Invalid optimizeImages: unknown field ${JSON.stringify(unknown[0])}; ${HELP}.`);
  return {
    maxDpi: given.maxDpi === undefined ? OPTIMIZE_IMAGES_DEFAULTS.maxDpi : whole('maxDpi', given.maxDpi, MAX_DPI_RANGE),
    quality: given.quality === undefined ? OPTIMIZE_IMAGES_DEFAULTS.quality : whole('quality', given.quality, QUALITY_RANGE),
  };
}

/** The request field, for parseRenderOptions: nothing when absent or false. */
export function parseOptimizeImagesField(input: { optimizeImages?: unknown }): { optimizeImages?: OptimizeImages } {
  const optimizeImages = input.optimizeImages === undefined ? undefined : parseOptimizeImages(input.optimizeImages);
  return optimizeImages ? { optimizeImages } : {};
}
