/**
 * A job's finished PDFs as one zip (yazl), streamed: entries are opened one after another as
 * the zip is written, so a job of thousands of rows holds one file open at a time. Entry names
 * are the rows' names (the job's `name` pattern); a name two rows share gets "-2", "-3"...
 * before its extension. PDFs are stored, not deflated: they are compressed already.
 */
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { RowRecord } from '../../core/jobs/job-types.js';
import { openRowPdf } from '../../core/jobs/open-row-pdf.js';
import type { Store } from '../../core/store/index.js';

/** Unique names in row order: the first row keeps its name, later ones are numbered. */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem}-${n}${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

export async function jobArchive(store: Store, rows: readonly RowRecord[], onError: (error: unknown) => void): Promise<{ stream: Readable; entries: number }> {
  const opened = [];
  for (const row of rows) {
    if (row.state !== 'done' || !row.token || !row.name) continue;
    const pdf = await openRowPdf(store, row.token);
    if (pdf) opened.push({ name: row.name, pdf });
  }
  const names = uniqueNames(opened.map((entry) => entry.name));
  const zip = new yazl.ZipFile();
  opened.forEach(({ pdf }, index) => {
    zip.addReadStreamLazy(names[index], { compress: false, size: pdf.bytes }, (done) => {
      pdf.open().then(
        (stream) => done(null, stream),
        (error: unknown) => done(error, undefined as unknown as Readable),
      );
    });
  });
  zip.end();
  const stream = zip.outputStream as unknown as Readable;
  stream.on('error', onError);
  return { stream, entries: opened.length };
}
