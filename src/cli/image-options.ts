/**
 * `--optimize-images` on render (single and batch) and generate: smaller files from image-heavy
 * documents (docs/templates.md#file-size). The flags become the request's `optimizeImages`,
 * judged by the core's own parser, so a bad value reads the same from the CLI and the API.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { MAX_DPI_RANGE, OPTIMIZE_IMAGES_DEFAULTS, parseOptimizeImages, QUALITY_RANGE, type OptimizeImages } from '../core/render/images/option.js';
import { ImprintError } from '../core/errors.js';

export interface ImageFlags {
  optimizeImages?: boolean;
  imageDpi?: number;
  imageQuality?: number;
}

const wholeNumber = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number.');
  return Number(value);
};

export function addImageOptions(command: Command): Command {
  return command
    .option(
      '--optimize-images',
      `smaller files: images downscaled to the resolution they print at (${OPTIMIZE_IMAGES_DEFAULTS.maxDpi} dpi) and photos re-encoded as JPEG (quality ${OPTIMIZE_IMAGES_DEFAULTS.quality}) before printing; identical images stored once; SVG, line art and transparency kept`,
    )
    .option('--image-dpi <dpi>', `with --optimize-images: image pixels per printed inch at most, ${MAX_DPI_RANGE[0]}-${MAX_DPI_RANGE[1]} (300 for print shops)`, wholeNumber)
    .option('--image-quality <1-100>', `with --optimize-images: JPEG quality of re-encoded photos, ${QUALITY_RANGE[0]}-${QUALITY_RANGE[1]}`, wholeNumber);
}

/** The request's `optimizeImages` from the flags: nothing without --optimize-images. */
export function imageOptions(flags: ImageFlags): { optimizeImages?: OptimizeImages } {
  if (!flags.optimizeImages) {
    if (flags.imageDpi !== undefined || flags.imageQuality !== undefined) {
      throw new ImprintError('USAGE', `${flags.imageDpi !== undefined ? '--image-dpi' : '--image-quality'} goes with --optimize-images: add it.`);
    }
    return {};
  }
  const given = Object.fromEntries(Object.entries({ maxDpi: flags.imageDpi, quality: flags.imageQuality }).filter(([, value]) => value !== undefined));
  return { optimizeImages: parseOptimizeImages(Object.keys(given).length > 0 ? given : true) };
}
