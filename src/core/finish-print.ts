/**
 * The finishing steps after the print, in their one agreed order: Chromium's structure ids
 * renumbered (structure-ids.ts), the Info fields, accessibility (bookmark names, PDF/UA), the
 * template's form fields, a test key's stamp, the request's stamp (else the template's), the
 * parts merged around it, PDF/A (with its e-invoice), the tags packed, encryption. The signature
 * (it needs the team's key) and the limits stay the engine's, after this.
 *
 * One function, so a render (engine.ts) and `imprint check --snapshot` (snapshot-template.ts,
 * which must give what `render --deterministic` gives) cannot finish a print differently.
 */
import { compactTags, finishAccessibility } from './pdf/accessibility.js';
import { encryptPdf } from './pdf/encrypt-pdf.js';
import { finishPdf } from './pdf/finish-pdf.js';
import { addFormFields } from './pdf/forms/add-form-fields.js';
import type { PendingParts } from './pdf/merge/merge-step.js';
import { stampPdf } from './pdf/stamp-pdf.js';
import { chosenStamp } from './pdf/stamp-options.js';
import { renumberStructureIds } from './pdf/structure-ids.js';
import type { WrittenEInvoice } from './einvoice/off-thread.js';
import type { RenderedDocument } from './render/render-types.js';
import type { RenderOptions } from './render-request.js';
import { stampTest } from './test-key.js';

/** The print's options: everything a render request says but the result's form (always PDF bytes here). */
export type PrintOptions = Omit<RenderOptions, 'format'>;

/** The print and what its page reported (a template's `metadata`, fields and `stamp`; an HTML page has only facts). */
export type Printed = Pick<RenderedDocument, 'pdf' | 'metadata' | 'facts' | 'fields' | 'stamp'>;

export interface FinishingContext {
  /** The document's date (pdf/document-date.ts); undefined: now. */
  date: Date | undefined;
  /** A test key's render: stamped TEST (test-key.ts). */
  test?: boolean;
  /** The `prepend`/`append` parts begun before the print (pdf/merge/merge-step.ts). */
  parts?: PendingParts;
  /** The template's checked e-invoice, embedded by PDF/A-3 when the request asked for one. */
  invoice?: WrittenEInvoice;
}

/**
 * The archival step, only when asked (the default path is unchanged): PDF/A, and for an
 * e-invoice its CII XML embedded as Factur-X says.
 */
async function archive(pdf: Buffer, options: PrintOptions, invoice: WrittenEInvoice | undefined): Promise<Buffer> {
  if (!options.pdfa) return pdf;
  const { makePdfA } = await import('./pdf/pdfa.js');
  const attachment = invoice && options.einvoice ? (await import('./einvoice/facturx.js')).facturXAttachment(invoice.xml, options.einvoice.profile) : undefined;
  return makePdfA(pdf, { level: options.pdfa, attachment, pdfua: options.pdfua });
}

/** Every step but the signature; each one a document does not need returns it untouched. */
export async function finishPrint(printed: Printed, options: PrintOptions, context: FinishingContext): Promise<Buffer> {
  // Without Chromium's page-history ids, a document's structure is the same whichever page printed it (a warm one or a fresh one).
  const info = await finishPdf(renumberStructureIds(printed.pdf), { templateMetadata: printed.metadata, metadata: options.metadata, date: context.date });
  const accessible = await finishAccessibility(info, options, printed.facts);
  const withFields = await addFormFields(accessible, printed.fields, { flatten: options.flatten, pdfa: options.pdfa !== undefined });
  const tested = context.test ? await stampTest(withFields) : withFields;
  const stamp = chosenStamp(options.stamp, printed.stamp);
  const stamped = stamp ? await stampPdf(tested, stamp) : tested;
  const merged = context.parts ? await context.parts.mergeInto(stamped) : stamped;
  // Tags packed into object streams once the pages are final, before encryption and signature.
  const archived = compactTags(await archive(merged, options, context.invoice), options);
  return options.encrypt ? encryptPdf(archived, options.encrypt) : archived;
}
