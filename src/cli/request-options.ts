/**
 * The request options render (single and batch) and generate (single and batch) send, from
 * their flags, in one place: each flag family's reader (its own file, judged by the core's
 * parser) adds its fields, and stamp/encrypt are read last because encryption is refused with
 * the PDF/A or e-invoice the other flags asked for. A command without a family's flags (generate
 * has no --flatten or --einvoice) simply leaves those fields out.
 */
import type { RenderOptions } from '../core/render-request.js';
import type { CliContext } from './context.js';
import { accessibilityOptions, type AccessibilityFlags } from './accessibility-flags.js';
import { documentOptions, type DocumentFlags } from './document-options.js';
import { formOptions, type FormFlags } from './form-options.js';
import { imageOptions, type ImageFlags } from './image-options.js';
import { mergeOptions, type MergeFlags } from './merge-options.js';
import type { OutputFlags } from './options.js';
import { stampEncryptOptions, type StampEncryptFlags } from './stamp-encrypt-flags.js';

export type RequestFlags = OutputFlags & AccessibilityFlags & DocumentFlags & FormFlags & MergeFlags & ImageFlags & StampEncryptFlags;

/** Merge parts and a stamp file are read now, so a bad one fails before anything renders. */
export async function requestOptions(flags: RequestFlags, ctx: CliContext): Promise<RenderOptions> {
  const options = {
    format: flags.format,
    size: flags.size,
    orientation: flags.orientation,
    ...accessibilityOptions(flags),
    ...documentOptions(flags, ctx.sourceDateEpoch),
    ...formOptions(flags),
    ...(await mergeOptions(flags)),
    ...imageOptions(flags),
  };
  return { ...options, ...(await stampEncryptOptions(flags, ctx.env, options)) };
}
