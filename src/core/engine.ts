/**
 * The engine both faces call: the CLI's embedded mode and the HTTP server. It owns the order
 * of a render (resolve the template, hold a unit of the team's limit, render, form the
 * result, count it only if it succeeded), so no rule of the contract is written twice.
 */
import { decodeArtifact, type Artifact } from './artifact.js';
import type { RenderOptions } from './render-request.js';
import type { BrowserProvider } from './render/browser-provider.js';
import { renderArtifact } from './render/render-template.js';
import { renderHtml, type HtmlSource } from './render/render-html.js';
import { toResultForm, type RenderResult } from './result-forms.js';
import type { GenerationReservation, Store, Team } from './store/index.js';

export interface EngineDeps {
  store: Store;
  browsers: BrowserProvider;
  renderTimeoutMs: number;
  /** Keeps the PDF of a `json` result and answers the URL it can be fetched from. */
  publishPdf: (teamId: number, pdf: Buffer) => string | Promise<string>;
  /** The server counts every generation against the team's limit; the local CLI does not. */
  enforceLimits: boolean;
}

export interface DocumentRender {
  result: RenderResult;
  usedPreviewProps: boolean;
}

/** Decoding an artifact parses megabytes of JSON: done once per version, not per render. */
const ARTIFACT_CACHE_SIZE = 32;

export function createEngine(deps: EngineDeps) {
  const artifacts = new Map<string, Artifact>();

  function loadArtifact(sha256: string): Artifact {
    let artifact = artifacts.get(sha256);
    if (!artifact) {
      artifact = decodeArtifact(deps.store.readArtifact(sha256));
      if (artifacts.size >= ARTIFACT_CACHE_SIZE) artifacts.delete(artifacts.keys().next().value as string);
      artifacts.set(sha256, artifact);
    }
    return artifact;
  }

  async function counted<T>(team: Team, work: () => Promise<T>): Promise<T> {
    const reservation: GenerationReservation | undefined = deps.enforceLimits ? deps.store.reserveGeneration(team.id) : undefined;
    try {
      const value = await work();
      reservation?.commit();
      return value;
    } catch (error) {
      reservation?.release();
      throw error;
    }
  }

  async function renderLoaded(team: Team, artifact: Artifact, props: unknown, options: RenderOptions): Promise<DocumentRender> {
    const browser = await deps.browsers.browser();
    const rendered = await renderArtifact(browser, artifact, props, options, deps.renderTimeoutMs);
    const result = await toResultForm(rendered.pdf, options.format, (pdf) => deps.publishPdf(team.id, pdf));
    return { result, usedPreviewProps: rendered.usedPreviewProps };
  }

  return {
    publish(team: Team, templateId: string, artifact: Buffer, sourceName?: string) {
      return deps.store.publishTemplate(team.id, templateId, artifact, { sourceName });
    },

    list(team: Team) {
      return deps.store.listTemplates(team.id);
    },

    /** A published template (A1). `props` undefined asks for the template's PreviewProps. */
    renderDocument(team: Team, idOrUuid: string, props: unknown, options: RenderOptions, version?: number): Promise<DocumentRender> {
      const template = deps.store.resolveTemplate(team.id, idOrUuid, version);
      const artifact = loadArtifact(template.artifactSha256);
      return counted(team, () => renderLoaded(team, artifact, props, options));
    },

    /** A template bundled just now from a local file, never published. */
    renderUnpublished(team: Team, artifact: Artifact, props: unknown, options: RenderOptions): Promise<DocumentRender> {
      return counted(team, () => renderLoaded(team, artifact, props, options));
    },

    /** Raw HTML and/or a web page (A2). */
    generate(team: Team, source: HtmlSource, options: RenderOptions): Promise<RenderResult> {
      return counted(team, async () => {
        const browser = await deps.browsers.browser();
        const pdf = await renderHtml(browser, source, options, deps.renderTimeoutMs);
        return toResultForm(pdf, options.format, (bytes) => deps.publishPdf(team.id, bytes));
      });
    },

    async close() {
      await deps.browsers.close();
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;
