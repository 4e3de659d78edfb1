/**
 * `imprint merge a.pdf b.pdf [...] -o out.pdf`: PDFs into one, on this machine, with one outline
 * entry per file (its Title, else its file name) and each file's own outline under it
 * (core/pdf/merge). No browser, no store, no service: the same in embedded and remote mode.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { ImprintError } from '../../core/errors.js';
import { mergePdfs, type PdfPart } from '../../core/pdf/merge/merge-pdfs.js';
import { deliverResult, prepareDestination } from '../deliver-result.js';
import { readBinaryInput } from '../io/read-text.js';
import { done } from '../ui/status.js';

export function registerMerge(program: Command) {
  program
    .command('merge')
    .description('put PDFs into one, in the order given, with one bookmark per file')
    .argument('<files...>', 'the PDFs to merge ("-" reads one of them from stdin)')
    .option('-o, --output <file|->', 'where to write the merged PDF; "-" for stdout (default: stdout when piped, else merged.pdf)')
    .addHelpText(
      'after',
      [
        '',
        'Each file gets one outline entry (bookmark), titled by its Title (else its file name) and',
        "opening its first page; a file's own bookmarks are nested under it. Links inside a file keep",
        "working. The first file's metadata, tags and form stay; the others' pages come in untagged",
        'and their form fields lose their function (docs/finishing.md#merging). Encrypted files are',
        'refused: decrypt them first (qpdf --decrypt).',
        '',
        'Examples:',
        '  $ imprint merge cover.pdf invoice.pdf terms.pdf -o invoice-pack.pdf',
        '  $ imprint render invoice --props props.json | imprint merge cover.pdf - terms.pdf > pack.pdf',
        '  $ imprint render invoice --props props.json --prepend cover.pdf --append terms.pdf -o pack.pdf   # the same in one step',
      ].join('\n'),
    )
    .action(async (files: string[], flags: { output?: string }) => {
      if (files.length < 2) throw new ImprintError('USAGE', `Give at least two PDFs to merge (got ${files.length}): imprint merge a.pdf b.pdf -o out.pdf.`);
      if (files.filter((file) => file === '-').length > 1) throw new ImprintError('USAGE', 'Standard input ("-") can be one of the files only once.');
      const destination = prepareDestination(flags.output, 'pdf', 'merged');
      const parts: PdfPart[] = [];
      for (const file of files) {
        const name = file === '-' ? 'standard input' : file;
        parts.push({ pdf: await readBinaryInput(file, 'PDF'), name, fallbackTitle: file === '-' ? 'Document' : path.basename(file) });
      }
      const [first, ...rest] = parts;
      const pdf = await mergePdfs(first, [], rest);
      const written = await deliverResult({ format: 'pdf', pdf }, destination);
      if (written) done(written);
    });
}
