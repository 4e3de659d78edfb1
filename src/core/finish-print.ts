/**
 * The finishing steps after the print, in their one agreed order: Chromium's structure ids
 * renumbered (structure-ids.ts), the Info fields, accessibility (bookmark names, PDF/UA), the
 * template's form fields, a test key's stamp, the request's stamp (else the template's), the
 * parts merged around it, PDF/A (with its e-invoice), the tags packed, encryption. The signature
 * (it needs the team's key) and the limits stay the engine's, after this.
 *
 * One function, so a render (engine.ts) and `imprint check --snapshot` (snapshot-template.ts,
 * which must give what `render --deterministic` gives) cannot finish a print differently.
 *
 * The default render (tagged, nothing between the Info fields and the packing to do) takes the
 * Info fields and the packing in one pass over the bytes (finishPdfPacked): the same bytes as
 * the steps one by one, the file read and written once instead of twice (bench/README.md,
 * tagged batch). A spooled print (a document past the spool's threshold) takes that pass file
 * to file (finish-spooled.ts).
 */
import { accessibilityStepNeeded, finishAccessibility } from './pdf/accessibility.js';
import { packObjectStreams } from './pdf/object-streams.js';
import { printAccessibility } from './pdf/accessibility-options.js';
import { encryptPdf } from './pdf/encrypt-pdf.js';
import { finishPdf, finishPdfPacked, type Finishing } from './pdf/finish-pdf.js';
import { addFormFields } from './pdf/forms/add-form-fields.js';
import type { PendingParts } from './pdf/merge/merge-step.js';
import { stampPdf } from './pdf/stamp-pdf.js';
import { chosenStamp, stampGiven } from './pdf/stamp-options.js';
import { renumberStructureIds } from './pdf/structure-ids.js';
import type { WrittenEInvoice } from './einvoice/off-thread.js';
import type { RenderedDocument } from './render/render-types.js';
import type { RenderOptions } from './render-request.js';
import { stampTest } from './test-key.js';
import { finishSpooled } from './finish-spooled.js';
import { isSpooled, wholePdf, type PdfBytes } from './spool/spooled-pdf.js';

/** The print's options: everything a render request says but the result's form (always PDF bytes here). */
export type PrintOptions = Omit<RenderOptions, 'format'>;

/** The print and what its page reported (a template's `metadata`, fields and `stamp`; an HTML page has only facts). */
export type Printed = Pick<RenderedDocument, 'pdf' | 'metadata' | 'facts' | 'fields' | 'stamp' | 'tagged'>;

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
  const { makePdfA } = await import('./pdf/pdfa.js');
  const attachment = invoice && options.einvoice ? (await import('./einvoice/facturx.js')).facturXAttachment(invoice.xml, options.einvoice.profile) : undefined;
  return makePdfA(pdf, { level: options.pdfa!, attachment, pdfua: options.pdfua });
}

/** A finishing step between the Info fields and the packing: whether this document gives it work, and the work. */
interface Step {
  needed: boolean;
  run(pdf: Buffer): Promise<Buffer>;
}

/**
 * The steps between the Info fields and the packing, in their order, each saying itself whether
 * it has work: bookmark names or PDF/UA, the template's form fields, a test key's stamp, the
 * request's stamp (else the template's), the parts merged around it, PDF/A (with its e-invoice).
 * When none has, the Info fields and the packing are one pass (finishPdfPacked), in memory or
 * on a spooled file (finish-spooled.ts).
 */
function stepsBetween(printed: Printed, options: PrintOptions, context: FinishingContext): Step[] {
  const { parts } = context;
  return [
    { needed: printed.tagged && accessibilityStepNeeded(options, printed.facts), run: (pdf) => finishAccessibility(pdf, options, printed.facts) },
    { needed: Boolean(printed.fields?.length), run: (pdf) => addFormFields(pdf, printed.fields, { flatten: options.flatten, pdfa: options.pdfa !== undefined }) },
    { needed: Boolean(context.test), run: stampTest },
    { needed: stampGiven(options.stamp, printed.stamp), run: (pdf) => stampPdf(pdf, chosenStamp(options.stamp, printed.stamp)!) },
    { needed: parts !== undefined && !parts.empty, run: (pdf) => parts!.mergeInto(pdf) },
    { needed: Boolean(options.pdfa), run: (pdf) => archive(pdf, options, context.invoice) },
  ];
}

/**
 * Every step but the signature; each one a document does not need returns it untouched. A
 * print held in memory comes back as bytes. A spooled one (spool/spooled-pdf.ts) is finished
 * file to file when only the Info fields and the packing have work (finish-spooled.ts); any
 * other step reads it whole and works as on a print held in memory.
 */
export async function finishPrint(printed: Printed & { pdf: Buffer }, options: PrintOptions, context: FinishingContext): Promise<Buffer>;
export async function finishPrint(printed: Printed, options: PrintOptions, context: FinishingContext): Promise<PdfBytes>;
export async function finishPrint(printed: Printed, options: PrintOptions, context: FinishingContext): Promise<PdfBytes> {
  const finishing: Finishing = { templateMetadata: printed.metadata, metadata: options.metadata, date: context.date };
  const between = stepsBetween(printed, options, context).filter((step) => step.needed);
  if (isSpooled(printed.pdf)) {
    const print = printed.pdf;
    const onFile =
      between.length === 0 && !options.encrypt
        ? await finishSpooled(print, finishing, printed.tagged).catch(async (error: unknown) => {
            await print.dispose();
            throw error;
          })
        : undefined;
    return onFile ?? finishInMemory(await wholePdf(print), printed.tagged, between, options, finishing);
  }
  return finishInMemory(printed.pdf, printed.tagged, between, options, finishing);
}

/** `tagged`: whether the print carries tags (its structure is packed); `between`: the steps with work (stepsBetween). */
async function finishInMemory(pdf: Buffer, tagged: boolean, between: Step[], options: PrintOptions, finishing: Finishing): Promise<Buffer> {
  // Without Chromium's page-history ids, a document's structure is the same whichever page printed it (a warm one or a fresh one).
  const renumbered = renumberStructureIds(pdf);
  const packed = tagged && between.length === 0 ? finishPdfPacked(renumbered, finishing) : undefined;
  const finished = packed ?? (await finishSteps(renumbered, tagged, between, finishing));
  return options.encrypt ? encryptPdf(finished, options.encrypt) : finished;
}

/** The steps one by one, from the Info fields to the packing. */
async function finishSteps(pdf: Buffer, tagged: boolean, between: Step[], finishing: Finishing): Promise<Buffer> {
  let done = await finishPdf(pdf, finishing);
  for (const step of between) done = await step.run(done);
  // Tags packed into object streams once the pages are final, before encryption and signature.
  return tagged ? packObjectStreams(done) : done;
}
