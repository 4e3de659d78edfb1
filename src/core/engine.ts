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
import { finishPdf } from './pdf/finish-pdf.js';
import type { RenderOptions } from './render-request.js';
import { ImprintError } from './errors.js';
import type { CalculatedInvoice } from './einvoice/calculate.js';
import type { EInvoiceProfile, EInvoiceSyntax } from './einvoice/model.js';
import type { EInvoiceCheck } from './render/render-types.js';
import type { BrowserPool } from './render/pool.js';
import { renderHtml, type HtmlSource } from './render/render-html.js';
import { toResultForm, type RenderResult } from './result-forms.js';
import { validateProps } from './schema/validate-props.js';
import { isTestKeyRender, stampedForTeam } from './test-key.js';
import type { GenerationReservation, Store, Team } from './store/index.js';

export interface EngineDeps {
  store: Store;
  /** The browser pool renders run in (createBrowserProvider makes one); closed with the engine. */
  browsers: BrowserPool;
  renderTimeoutMs: number;
  /** Keeps the PDF of a `json` result and answers the URL it can be fetched from. */
  publishPdf: (teamId: number, pdf: Buffer) => string | Promise<string>;
  /** The server counts every generation against the team's limit; the local CLI does not. */
  enforceLimits: boolean;
  /** Props depth, pages and bytes per document (the service's); none by default (the local CLI). */
  renderLimits?: RenderLimits;
}

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

/** The e-invoice modules (the XML writer) load only for a render that asks for an e-invoice. */
const loadEInvoice = () => import('./einvoice/prepare.js');

/** How the template's e-invoice model is judged in the page, before anything is drawn: checked and calculated, or INVALID_INPUT. */
async function einvoiceCheck(artifact: Artifact, profile: EInvoiceProfile): Promise<EInvoiceCheck<CalculatedInvoice>> {
  const { prepareEInvoice } = await loadEInvoice();
  return (model) => prepareEInvoice(model, profile, `The einvoice of ${artifact.sourceName} (profile ${profile})`);
}

/**
 * The archival step after the finishing one, only when asked (the default path is unchanged):
 * PDF/A, and for an e-invoice its CII XML embedded as Factur-X says.
 */
async function archive(pdf: Buffer, options: RenderOptions, invoice: CalculatedInvoice | undefined): Promise<Buffer> {
  if (!options.pdfa) return pdf;
  const { makePdfA } = await import('./pdf/pdfa.js');
  const attachment = invoice && options.einvoice ? (await import('./einvoice/facturx.js')).facturXAttachment(invoice, options.einvoice.profile) : undefined;
  return makePdfA(pdf, { level: options.pdfa, attachment });
}

/** Teams never share a browser context (their isolation key is their id). */
const isolationKey = (team: Team) => `team:${team.id}`;

export function createEngine(deps: EngineDeps) {
  const artifacts = new Map<string, Artifact>();
  const pool = deps.browsers;
  const limits = deps.renderLimits ?? NO_RENDER_LIMITS;

  /** Checked before the PDF is returned, stored or counted (a failure here releases the generation). */
  function limited(pdf: Buffer): Buffer {
    checkDocumentLimits(pdf, limits);
    return pdf;
  }

  async function loadArtifact(sha256: string): Promise<Artifact> {
    let artifact = artifacts.get(sha256);
    if (!artifact) {
      artifact = decodeArtifact(await deps.store.readArtifact(sha256));
      if (artifacts.size >= ARTIFACT_CACHE_SIZE) artifacts.delete(artifacts.keys().next().value as string);
      artifacts.set(sha256, artifact);
    }
    return artifact;
  }

  async function counted<T>(team: Team, work: () => Promise<T>, enforceLimits = deps.enforceLimits): Promise<T> {
    // A test key's render is not counted (test-key.ts).
    const reservation: GenerationReservation | undefined = enforceLimits && !isTestKeyRender(team) ? await deps.store.reserveGeneration(team.id) : undefined;
    try {
      const value = await work();
      await reservation?.commit();
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
   * The finished PDF as the caller gets it: a test key's stamped (test-key.ts), then made PDF/A
   * (with its e-invoice) when asked, so the archive step sees the final pages; checked against the
   * limits, in the asked form.
   */
  async function formed(team: Team, pdf: Buffer, options: RenderOptions, invoice: CalculatedInvoice | undefined): Promise<RenderResult> {
    const archived = await archive(await stampedForTeam(team, pdf), options, invoice);
    return toResultForm(limited(archived), options.format, (bytes) => deps.publishPdf(team.id, bytes));
  }

  /** `inputDate`: a deterministic render's date when the caller gives no SOURCE_DATE_EPOCH. */
  async function renderLoaded(team: Team, artifact: Artifact, artifactKey: string, props: unknown, options: RenderOptions, inputDate: () => Date, signal?: AbortSignal): Promise<DocumentRender> {
    // An e-invoice's model is computed in the page and checked before anything is drawn.
    const einvoice = options.einvoice ? await einvoiceCheck(artifact, options.einvoice.profile) : undefined;
    const rendered = await pool.renderTemplate({
      isolationKey: isolationKey(team),
      artifactKey,
      artifact,
      props,
      request: options,
      timeoutMs: deps.renderTimeoutMs,
      signal,
      einvoice,
    });
    const finished = await finishPdf(rendered.pdf, { templateMetadata: rendered.metadata, metadata: options.metadata, date: documentDate(options.deterministic, inputDate) });
    const result = await formed(team, finished, options, rendered.einvoice);
    return { result, usedPreviewProps: rendered.usedPreviewProps };
  }

  /**
   * The renders, counted against the team's limit or not. Not counted: a job's rows, whose
   * units the job took when it was submitted; they share this engine's artifact cache.
   */
  const renders = (enforceLimits: boolean) => ({
    /** A published template (A1). `props` undefined asks for the template's PreviewProps. */
    /** `signal`: the caller gave up (its CLI was interrupted); the render stops. */
    async renderDocument(team: Team, idOrUuid: string, props: unknown, options: RenderOptions, version?: number, signal?: AbortSignal): Promise<DocumentRender> {
      // First: every later step (schema validation, the page, React) walks the props recursively.
      checkPropsDepth(props, limits.maxPropsDepth);
      const template = await deps.store.resolveTemplate(team.id, idOrUuid, version);
      // Before any browser work: wrong props are answered with their paths, not a wrong PDF.
      // No props means the template's PreviewProps, which live in the page and are not checked here.
      if (template.propsSchema && props !== undefined) validateProps(template.propsSchema, props, `The props of template "${template.id}"`);
      const artifact = await loadArtifact(template.artifactSha256);
      const published = () => new Date(template.publishedAt);
      return counted(team, () => renderLoaded(team, artifact, `sha256:${template.artifactSha256}`, props, options, published, signal), enforceLimits);
    },

    /** A template bundled just now from a local file, never published. */
    renderUnpublished(team: Team, artifact: Artifact, props: unknown, options: RenderOptions): Promise<DocumentRender> {
      checkPropsDepth(props, limits.maxPropsDepth);
      return counted(team, () => renderLoaded(team, artifact, unpublishedKey(artifact), props, options, () => artifactDate(artifact)), enforceLimits);
    },

    /** Raw HTML and/or a web page (A2). */
    generate(team: Team, source: HtmlSource, options: RenderOptions, signal?: AbortSignal): Promise<RenderResult> {
      if (options.einvoice) {
        return Promise.reject(new ImprintError('INVALID_INPUT', 'An e-invoice comes from a template\'s `einvoice` mapping: render a template (POST /api/documents/{id}, `imprint render`) with einvoice; HTML and URLs take pdfa only.'));
      }
      return counted(
        team,
        async () => {
          const printed = await renderHtml(pool, isolationKey(team), source, options, deps.renderTimeoutMs, signal);
          const pdf = await finishPdf(printed, { metadata: options.metadata, date: documentDate(options.deterministic, () => sourceDate(source)) });
          return formed(team, pdf, options, undefined);
        },
        enforceLimits,
      );
    },
  });

  /** The template's e-invoice as XML, nothing rendered or printed; not a generation, so not counted. */
  async function einvoiceOf(team: Team, artifact: Artifact, artifactKey: string, props: unknown, request: { profile: EInvoiceProfile; syntax: EInvoiceSyntax }, signal?: AbortSignal) {
    const { writeEInvoiceXml } = await loadEInvoice();
    const { einvoice, usedPreviewProps } = await pool.templateEInvoice({
      isolationKey: isolationKey(team),
      artifactKey,
      artifact,
      props,
      timeoutMs: deps.renderTimeoutMs,
      signal,
      einvoice: await einvoiceCheck(artifact, request.profile),
    });
    return { xml: writeEInvoiceXml(einvoice, request.profile, request.syntax), usedPreviewProps };
  }

  const engine = {
    ...renders(deps.enforceLimits),

    /** A published template's e-invoice XML (POST /api/documents/{id}/einvoice, `imprint einvoice`). */
    async einvoiceDocument(team: Team, idOrUuid: string, props: unknown, request: { profile: EInvoiceProfile; syntax: EInvoiceSyntax }, version?: number, signal?: AbortSignal) {
      checkPropsDepth(props, limits.maxPropsDepth);
      const template = await deps.store.resolveTemplate(team.id, idOrUuid, version);
      if (template.propsSchema && props !== undefined) validateProps(template.propsSchema, props, `The props of template "${template.id}"`);
      return einvoiceOf(team, await loadArtifact(template.artifactSha256), `sha256:${template.artifactSha256}`, props, request, signal);
    },

    /** The same for a template bundled just now from a local file. */
    einvoiceUnpublished(team: Team, artifact: Artifact, props: unknown, request: { profile: EInvoiceProfile; syntax: EInvoiceSyntax }) {
      checkPropsDepth(props, limits.maxPropsDepth);
      return einvoiceOf(team, artifact, unpublishedKey(artifact), props, request);
    },

    /** The same renders, not counted (a job's rows: their units were taken at submit). */
    uncounted: () => renders(false),

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
