/**
 * Writes a render's result where the user asked, the same way for render and generate in
 * both modes: PDF bytes, or the one-line JSON body of the base64/json forms.
 */
import path from 'node:path';
import type { OutputFormat } from '../core/render-request.js';
import type { RenderResult } from '../core/result-forms.js';
import { disposePdf, pdfByteLength } from '../core/spool/spooled-pdf.js';
import { checkWritable, chooseDestination, deliver, type Destination } from './io/write-output.js';

/** `stdoutIsTTY`: this process's unless given (the renderer prepares a nail call's destination for its client: nail-serve.ts). */
export function prepareDestination(output: string | undefined, format: OutputFormat, defaultName: string, stdoutIsTTY = Boolean(process.stdout.isTTY)): Destination {
  const destination = chooseDestination({
    output,
    binary: format === 'pdf',
    stdoutIsTTY,
    defaultFileName: `${defaultName}.pdf`,
  });
  checkWritable(destination);
  return destination;
}

/** Returns a line for stderr saying what was written, or undefined when it went to stdout. */
export async function deliverResult(result: RenderResult, destination: Destination): Promise<string | undefined> {
  const data = result.format === 'pdf' ? result.pdf : `${JSON.stringify(result.body)}\n`;
  try {
    await deliver(destination, data);
  } finally {
    // A spooled PDF's file is removed once copied, or when the copy failed.
    if (result.format === 'pdf') await disposePdf(result.pdf);
  }
  return destination.kind === 'stdout' ? undefined : writtenLine(result, destination.path);
}

/** What a file written says on stderr, its path relative to `cwd` (the renderer says it for a nail call's client: nail-serve.ts). */
export function writtenLine(result: RenderResult, file: string, cwd = process.cwd()): string {
  const size = result.format === 'pdf' ? ` (${(pdfByteLength(result.pdf) / 1024).toFixed(1)} KiB)` : '';
  return `Wrote ${path.relative(cwd, file) || file}${size}`;
}
