/**
 * The flags of the document itself, shared by render (single and batch) and generate:
 * reproducible output and the PDF's Info fields. They become the same request fields the
 * API takes (`deterministic`, `metadata`), read by the core's own parsers.
 */
import type { Command } from 'commander';
import { parseArchival, type RenderOptions } from '../core/render-request.js';
import { parseSourceDateEpoch } from '../core/pdf/document-date.js';
import { parseDocumentMetadata, type DocumentMetadata } from '../core/pdf/document-metadata.js';
import { guideFile } from '../core/guides.js';

export interface DocumentFlags {
  deterministic?: boolean;
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  lang?: string;
  creator?: string;
  pdfa?: string;
  einvoice?: string;
  einvoiceProfile?: string;
}

export function addDocumentOptions(command: Command): Command {
  return command
    .option('--deterministic', 'same input, same bytes: the PDF\'s dates come from the template version (or the content), not the clock; implied by SOURCE_DATE_EPOCH, which then sets them')
    .option('--title <text>', "the PDF's title (default: the template's metadata, else its <title>)")
    .option('--author <text>', "the PDF's author")
    .option('--subject <text>', "the PDF's subject")
    .option('--keywords <list>', "the PDF's keywords, comma-separated")
    .option('--lang <tag>', 'the document language, e.g. en-GB (read by screen readers)')
    .option('--creator <text>', 'the application named as Creator (default: Imprint and its version)')
    .option('--pdfa <level>', `a PDF/A for archiving: 2b or 3b (sRGB output intent, XMP metadata, document ID; see ${guideFile('einvoice')})`);
}

/** render only: the template's `einvoice` mapping embedded as Factur-X / ZUGFeRD XML (docs/einvoice.md). */
export function addEInvoiceOptions(command: Command): Command {
  return command
    .option('--einvoice <format>', 'an e-invoice: factur-x (alias zugferd), a PDF/A-3b with the invoice\'s CII XML inside, from the template\'s `einvoice` mapping')
    .option('--einvoice-profile <profile>', 'with --einvoice: minimum, basic-wl, basic, en16931 (default), extended or xrechnung');
}

/** `sourceDateEpoch`: the SOURCE_DATE_EPOCH variable as set, if it is. */
export function documentOptions(flags: DocumentFlags, sourceDateEpoch: string | undefined): Pick<RenderOptions, 'deterministic' | 'metadata' | 'pdfa' | 'einvoice'> {
  const options: Pick<RenderOptions, 'deterministic' | 'metadata' | 'pdfa' | 'einvoice'> = parseArchival({ pdfa: flags.pdfa, einvoice: flags.einvoice, einvoiceProfile: flags.einvoiceProfile });
  const epoch = parseSourceDateEpoch(sourceDateEpoch);
  if (epoch !== undefined) options.deterministic = epoch;
  else if (flags.deterministic) options.deterministic = true;
  const given = { title: flags.title, author: flags.author, subject: flags.subject, keywords: flags.keywords, language: flags.lang, creator: flags.creator };
  const fields = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  if (Object.keys(fields).length > 0) options.metadata = parseDocumentMetadata(fields, 'metadata flag') satisfies DocumentMetadata;
  return options;
}
