/**
 * `--prepend <file|url>` and `--append <file|url>` on render and generate: documents put before
 * and after the rendered one (docs/finishing.md#merging). A file is read here and sent as the
 * request's base64 part, named by its file name; an http(s) address is fetched by whoever
 * renders (this machine in embedded mode, public addresses unless --allow-local; the service
 * in remote mode, under its operator's policy).
 */
import path from 'node:path';
import type { Command } from 'commander';
import { ImprintError } from '../core/errors.js';
import { parseMergeParts, type MergePart, type MergeParts } from '../core/pdf/merge/parts.js';
import { readBinaryInput } from './io/read-text.js';

export interface MergeFlags {
  prepend?: string[];
  append?: string[];
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function addMergeOptions(command: Command): Command {
  return command
    .option('--prepend <file|url>', 'a PDF to put before the document, with its own outline entry (repeatable; an http(s) URL is fetched under the same rules as --url)', collect)
    .option('--append <file|url>', 'a PDF to put after the document, e.g. terms.pdf (repeatable, in the order given)', collect);
}

async function part(given: string, flag: string): Promise<MergePart> {
  if (/^https?:\/\//i.test(given)) return { url: given };
  const pdf = await readBinaryInput(given, `${flag} PDF`);
  if (!pdf.subarray(0, 1024).includes('%PDF-')) throw new ImprintError('USAGE', `${flag} ${given} is not a PDF (it does not start with %PDF-).`);
  return { pdf: pdf.toString('base64'), name: path.basename(given) };
}

/** The request's `prepend` and `append` from the flags, files read now, judged by the core's rule. */
export async function mergeOptions(flags: MergeFlags): Promise<MergeParts> {
  const read = (values: string[] | undefined, flag: string) => Promise.all((values ?? []).map((value) => part(value, flag)));
  return parseMergeParts({ prepend: await read(flags.prepend, '--prepend'), append: await read(flags.append, '--append') });
}
