/**
 * The engine both faces call: the CLI's embedded mode and the HTTP server. It owns the order
 * of a render (resolve the template, hold a unit of the team's limit, render, form the
 * result, count it only if it succeeded), so no rule of the contract is written twice.
 */
import { decodeArtifact, type Artifact } from './artifact.js';
import { checkDocumentLimits } from './limits/document-limits.js';
import { checkPropsDepth } from './limits/props-depth.js';
import { NO_RENDER_LIMITS, type RenderLimits } from './limits/render-limits.js';
import { artifactDate, sourceDate } from './pdf/input-dates.js';
import { documentDate } from './pdf/document-date.js';
import type { PartFetcher } from './pdf/merge/fetch-part.js';
import { beginParts } from './pdf/merge/merge-step.js';
import { finishPrint, type FinishingContext, type Printed, type PrintOptions } from './finish-print.js';
import type { RenderOptions } from './render-request.js';
import { ImprintError } from './errors.js';
import { writeEInvoiceOffThread, type WrittenEInvoice } from './einvoice/off-thread.js';
import type { EInvoiceProfile, EInvoiceSyntax } from './einvoice/model.js';
import type { EInvoiceCheck } from './render/render-types.js';
import type { BrowserPool } from './render/pool.js';
import { renderHtml, type HtmlSource } from './render/render-html.js';
import { toResultForm, type RenderResult } from './result-forms.js';
import { validateProps } from './schema/validate-props.js';
import { isTestKeyRender } from './test-key.js';
import type { GenerationReservation, ResolvedTemplate, Store, Team } from './store/index.js';
import type { MadeBy } from './pdf/sign/sign-document.js';
import type { SigningKey } from './pdf/sign/signing-key.js';
import type { SpoolPolicy } from './spool/spool-policy.js';
import { disposeOutcome, disposePdf, wholePdf, type PdfBytes } from './spool/spooled-pdf.js';

export interface EngineDeps {
  store: Store;
  /** The browser pool renders run in (createBrowserProvider makes one); closed with the engine. */
  browsers: BrowserPool;
  renderTimeoutMs: number;
  /** Keeps the PDF of a `json` result and answers the URL it can be fetched from (a spooled one is the store's to dispose of). */
  publishPdf: (teamId: number, pdf: PdfBytes) => string | Promise<string>;
  /** The server counts every generation against the team's limit; the local CLI does not. */
  enforceLimits: boolean;
  /** Props depth, pages and bytes per document (the service's); none by default (the local CLI). */
  renderLimits?: RenderLimits;
  /** Fetches a `prepend`/`append` part given by URL under the caller's network rules (pdf/merge/fetch-part.ts). */
  fetchPart?: PartFetcher;
  /** A request's `sign`: the team's signing key (the service's, sealed in its store) and the way to a TSA. Absent: `sign` is refused. */
  signing?: { key: (teamId: number) => Promise<SigningKey>; fetch?: typeof fetch };
  /** When a print goes to a file rather than a Buffer (spool/spool-policy.ts); none keeps every print in memory. */
  spool?: SpoolPolicy;
}

/**
 * Whom a render is for, as the engine needs it: the team's id (its own browser context, the
 * unit it counts against, the owner of a json result's file) and whether a test key asked (the
 * PDF stamped, nothing counted). A request's comes from its team (the key's lookup marked a test
 * key's); a job's row's from the job's record, so no team is made up for it.
 */
export interface RenderFor {
  teamId: number;
  test: boolean;
}

export type { PrintOptions } from './finish-print.js';

export interface DocumentRender {
  result: RenderResult;
  usedPreviewProps: boolean;
}

/** Decoding an artifact parses megabytes of JSON: done once per version, not per render. */
const ARTIFACT_CACHE_SIZE = 32;

/** Warm pages are kept per artifact: a published one is known by its hash, a local one by identity. */
const unpublishedKeys = new WeakMap<Artifact, string>();
let unpublishedCount = 0;
function unpublishedKey(artifact: Artifact): string {
  let key = unpublishedKeys.get(artifact);
  if (!key) unpublishedKeys.set(artifact, (key = `local:${++unpublishedCount}`));
  return key;
}

/** The error to answer with, carrying the failed release as `releaseError` (logged with it). */
function withReleaseError(error: unknown, releaseError: unknown): unknown {
  if (error instanceof Error) return Object.assign(error, { releaseError });
  return releaseError;
}

/**
 * How the template's e-invoice model is judged once the page has computed it, before anything is
 * drawn: checked, calculated and written in `syntax` on the e-invoice worker thread (a large
 * invoice is seconds of CPU the service's event loop must not spend), or INVALID_INPUT.
 */
function einvoiceCheck(artifact: Artifact, profile: EInvoiceProfile, syntax: EInvoiceSyntax): EInvoiceCheck<WrittenEInvoice> {
  return (model) => writeEInvoiceOffThread(model, profile, syntax, `The einvoice of ${artifact.sourceName} (profile ${profile})`);
}

/** Teams never share a browser context (their isolation key is their id). */
const isolationKey = (teamId: number) => `team:${teamId}`;

const renderFor = (team: Team): RenderFor => ({ teamId: team.id, test: isTestKeyRender(team) });

/** A2 takes PDF/A only: the e-invoice model lives in a template. */
function refuseEInvoice(options: PrintOptions): void {
  if (options.einvoice) {
    throw new ImprintError('INVALID_INPUT', 'An e-invoice comes from a template\'s `einvoice` mapping: render a template (POST /api/documents/{id}, `imprint render`) with einvoice; HTML and URLs take pdfa only.');
  }
}

export function createEngine(deps: EngineDeps) {
  const artifacts = new Map<string, Artifact>();
  const pool = deps.browsers;
  const limits = deps.renderLimits ?? NO_RENDER_LIMITS;

  async function loadArtifact(sha256: string): Promise<Artifact> {
    let artifact = artifacts.get(sha256);
    if (!artifact) {
      artifact = decodeArtifact(await deps.store.readArtifact(sha256));
      if (artifacts.size >= ARTIFACT_CACHE_SIZE) artifacts.delete(artifacts.keys().next().value as string);
      artifacts.set(sha256, artifact);
    }
    return artifact;
  }

  /**
   * A published version's artifact, once its props are judged: depth first (every later step
   * walks them recursively), then the version's schema, before any browser work, so wrong props
   * are answered with their paths, not a wrong PDF. No props means the template's PreviewProps,
   * which live in the page and are not checked here.
   */
  async function checkedArtifact(template: ResolvedTemplate, props: unknown): Promise<Artifact> {
    if (template.propsSchema && props !== undefined) validateProps(template.propsSchema, props, `The props of template "${template.id}"`);
    return loadArtifact(template.artifactSha256);
  }

  async function counted<T>(caller: RenderFor, work: () => Promise<T>): Promise<T> {
    // A test key's render is not counted (test-key.ts).
    const reservation: GenerationReservation | undefined = deps.enforceLimits && !caller.test ? await deps.store.reserveGeneration(caller.teamId) : undefined;
    try {
      const value = await work();
      // A spooled PDF (spool/spooled-pdf.ts) no one will deliver is removed.
      await reservation?.commit().catch(async (error: unknown) => {
        await disposeOutcome(value);
        throw error;
      });
      return value;
    } catch (error) {
      try {
        await reservation?.release();
      } catch (releaseError) {
        // The render's own failure is the answer (a 504 stays a 504); that its generation could
        // not be given back (the disk filled meanwhile) travels with it, for the log.
        throw withReleaseError(error, releaseError);
      }
      throw error;
    }
  }

  /**
   * The finished PDF as the caller gets it: every finishing step (finish-print.ts), then signed
   * when asked; checked against the limits before it is returned, stored or counted (a failure
   * here releases the generation).
   */
  async function finished(caller: RenderFor, printed: Printed, options: PrintOptions, context: Omit<FinishingContext, 'test'>, key: SigningKey | undefined, madeBy: MadeBy = {}): Promise<PdfBytes> {
    const sealed = await finishPrint(printed, options, { ...context, test: caller.test });
    try {
      // The signature works on bytes: a spooled document is read whole for it.
      const signed = options.sign && key ? await signLast(await wholePdf(sealed), key, { ...options, sign: options.sign }, madeBy) : sealed;
      checkDocumentLimits(signed, limits);
      return signed;
    } catch (error) {
      await disposePdf(sealed);
      throw error;
    }
  }

  /**
   * The team's key when the request signs, opened before the print: a team without one (or a
   * service without its secret) is answered before anything is rendered, and in a job before
   * each row's print rather than after it.
   */
  async function signingKeyFor(caller: RenderFor, options: PrintOptions): Promise<SigningKey | undefined> {
    if (!options.sign) return undefined;
    if (!deps.signing) throw new ImprintError('INVALID_INPUT', 'sign signs with a team\'s key held by an Imprint service (`imprint team signing-key`); on this machine, sign with your own key file: `--sign <file.p12>`.');
    return deps.signing.key(caller.teamId);
  }

  /** The signature, always the last step (it covers every byte before it). */
  async function signLast(pdf: Buffer, key: SigningKey, options: PrintOptions & { sign: NonNullable<PrintOptions['sign']> }, madeBy: MadeBy): Promise<Buffer> {
    return (await import('./pdf/sign/sign-document.js')).signDocument(pdf, key, options.sign, madeBy, deps.signing?.fetch, options.encrypt);
  }

  /** The PDF in the asked form (A3): a json result's file kept for the team behind a URL. */
  const inForm = (caller: RenderFor, pdf: PdfBytes, format: RenderOptions['format']): Promise<RenderResult> =>
    toResultForm(pdf, format, (bytes) => deps.publishPdf(caller.teamId, bytes));

  /** `inputDate`: a deterministic render's date when the caller gives no SOURCE_DATE_EPOCH. */
  async function printTemplate(caller: RenderFor, artifact: Artifact, artifactKey: string, props: unknown, options: PrintOptions, inputDate: () => Date, signal?: AbortSignal, madeBy?: MadeBy): Promise<{ pdf: PdfBytes; usedPreviewProps: boolean }> {
    // An e-invoice's model is computed in the page, then checked and written (off this thread) before anything is drawn.
    const einvoice = options.einvoice ? einvoiceCheck(artifact, options.einvoice.profile, 'cii') : undefined;
    const key = await signingKeyFor(caller, options);
    // The parts to merge are judged before the print (a refused one costs none) and downloaded while it runs.
    const parts = await beginParts(options, { fetchPart: deps.fetchPart, limits });
    const rendered = await parts.during(pool.renderTemplate({
      isolationKey: isolationKey(caller.teamId),
      artifactKey,
      artifact,
      props,
      request: options,
      timeoutMs: deps.renderTimeoutMs,
      signal,
      einvoice,
      spool: deps.spool,
    }));
    const context = { date: documentDate(options.deterministic, inputDate), parts, invoice: rendered.einvoice };
    return { pdf: await finished(caller, rendered, options, context, key, madeBy), usedPreviewProps: rendered.usedPreviewProps };
  }

  /** A published version's print: its document date, when deterministic, is when it was published. */
  const printPublished = (caller: RenderFor, template: ResolvedTemplate, artifact: Artifact, props: unknown, options: PrintOptions, signal?: AbortSignal) =>
    printTemplate(caller, artifact, `sha256:${template.artifactSha256}`, props, options, () => new Date(template.publishedAt), signal, { template: template.id, version: template.version });

  async function printHtml(caller: RenderFor, source: HtmlSource, options: PrintOptions, signal?: AbortSignal): Promise<PdfBytes> {
    const key = await signingKeyFor(caller, options);
    const parts = await beginParts(options, { fetchPart: deps.fetchPart, limits });
    const printed = await parts.during(renderHtml(pool, isolationKey(caller.teamId), source, options, deps.renderTimeoutMs, signal, deps.spool));
    return finished(caller, printed, options, { date: documentDate(options.deterministic, () => sourceDate(source)), parts }, key);
  }

  /** The template's e-invoice as XML, nothing rendered or printed; not a generation, so not counted. */
  async function einvoiceOf(team: Team, artifact: Artifact, artifactKey: string, props: unknown, request: { profile: EInvoiceProfile; syntax: EInvoiceSyntax }, signal?: AbortSignal) {
    const { einvoice, usedPreviewProps } = await pool.templateEInvoice({
      isolationKey: isolationKey(team.id),
      artifactKey,
      artifact,
      props,
      timeoutMs: deps.renderTimeoutMs,
      signal,
      einvoice: einvoiceCheck(artifact, request.profile, request.syntax),
    });
    return { xml: einvoice.xml, usedPreviewProps };
  }

  const engine = {
    /** A published template (A1). `props` undefined asks for the template's PreviewProps. */
    /** `signal`: the caller gave up (its CLI was interrupted); the render stops. */
    async renderDocument(team: Team, idOrUuid: string, props: unknown, options: RenderOptions, version?: number, signal?: AbortSignal): Promise<DocumentRender> {
      checkPropsDepth(props, limits.maxPropsDepth);
      const template = await deps.store.resolveTemplate(team.id, idOrUuid, version);
      const artifact = await checkedArtifact(template, props);
      const caller = renderFor(team);
      return counted(caller, async () => {
        const printed = await printPublished(caller, template, artifact, props, options, signal);
        return { result: await inForm(caller, printed.pdf, options.format), usedPreviewProps: printed.usedPreviewProps };
      });
    },

    /** A template bundled just now from a local file, never published. */
    renderUnpublished(team: Team, artifact: Artifact, props: unknown, options: RenderOptions): Promise<DocumentRender> {
      checkPropsDepth(props, limits.maxPropsDepth);
      const caller = renderFor(team);
      return counted(caller, async () => {
        const printed = await printTemplate(caller, artifact, unpublishedKey(artifact), props, options, () => artifactDate(artifact));
        return { result: await inForm(caller, printed.pdf, options.format), usedPreviewProps: printed.usedPreviewProps };
      });
    },

    /** Raw HTML and/or a web page (A2). */
    async generate(team: Team, source: HtmlSource, options: RenderOptions, signal?: AbortSignal): Promise<RenderResult> {
      refuseEInvoice(options);
      const caller = renderFor(team);
      return counted(caller, async () => inForm(caller, await printHtml(caller, source, options, signal), options.format));
    },

    /**
     * A job's row (core/jobs): the version the job pinned at submit, printed to PDF bytes for the
     * job's team; nothing resolved, nothing counted (the job took its rows' units at submit). The
     * artifact cache is the one requests share.
     */
    async renderPinned(caller: RenderFor, template: ResolvedTemplate, props: unknown, options: PrintOptions): Promise<PdfBytes> {
      checkPropsDepth(props, limits.maxPropsDepth);
      const artifact = await checkedArtifact(template, props);
      return (await printPublished(caller, template, artifact, props, options)).pdf;
    },

    /** An A2 job's row: raw HTML and/or a web page to PDF bytes, not counted (as renderPinned). */
    async generatePdf(caller: RenderFor, source: HtmlSource, options: PrintOptions): Promise<PdfBytes> {
      refuseEInvoice(options);
      return printHtml(caller, source, options);
    },

    /** A published template's e-invoice XML (POST /api/documents/{id}/einvoice, `imprint einvoice`). */
    async einvoiceDocument(team: Team, idOrUuid: string, props: unknown, request: { profile: EInvoiceProfile; syntax: EInvoiceSyntax }, version?: number, signal?: AbortSignal) {
      checkPropsDepth(props, limits.maxPropsDepth);
      const template = await deps.store.resolveTemplate(team.id, idOrUuid, version);
      return einvoiceOf(team, await checkedArtifact(template, props), `sha256:${template.artifactSha256}`, props, request, signal);
    },

    /** The same for a template bundled just now from a local file. */
    einvoiceUnpublished(team: Team, artifact: Artifact, props: unknown, request: { profile: EInvoiceProfile; syntax: EInvoiceSyntax }) {
      checkPropsDepth(props, limits.maxPropsDepth);
      return einvoiceOf(team, artifact, unpublishedKey(artifact), props, request);
    },

    /** `propsSchema`: the JSON Schema of the template's props, checked by every later render. `publishedBy`: the API key id. */
    publish(team: Team, templateId: string, artifact: Buffer, sourceName?: string, propsSchema?: object, publishedBy?: string) {
      return deps.store.publishTemplate(team.id, templateId, artifact, { sourceName, propsSchema, publishedBy });
    },

    /** The props schema stored with a version (the latest by default); null for a template without types. */
    async propsSchema(team: Team, idOrUuid: string, version?: number): Promise<object | null> {
      return (await deps.store.resolveTemplate(team.id, idOrUuid, version)).propsSchema;
    },

    list(team: Team) {
      return deps.store.listTemplates(team.id);
    },

    /** The pool's state, for health checks and the benchmark. */
    poolStats() {
      return pool.stats();
    },

    async close() {
      await pool.close();
    },
  };
  return engine;
}

export type Engine = ReturnType<typeof createEngine>;
