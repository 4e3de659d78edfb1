/**
 * Renders an artifact with props to a PDF in a fresh, isolated browser context: load the
 * shell page from memory, let the page runtime render and settle, then print.
 */
import type { Browser } from 'puppeteer-core';
import type { Artifact } from '../artifact.js';
import { ImprintError } from '../errors.js';
import { parseCssPageSize, resolvePageSetup, type Orientation, type PageDimensions } from '../page-size.js';
import { TEMPLATE_ORIGIN, type PageRenderOutcome } from '../../runtime/page-protocol.js';
import { withDeadline } from './deadline.js';
import { printPdf } from './print-pdf.js';
import { locateInTemplate } from './source-location.js';
import { routeTemplateRequest, templateResponses } from './template-route.js';

export interface PageRequest {
  size?: PageDimensions;
  orientation?: Orientation;
  tagged?: boolean;
}

export interface RenderedDocument {
  pdf: Buffer;
  usedPreviewProps: boolean;
}

function templateError(artifact: Artifact, outcome: Exclude<PageRenderOutcome, { ok: true }>): ImprintError {
  if (outcome.reason === 'no-props') {
    return new ImprintError('INVALID_INPUT', `No props were given and ${artifact.sourceName} has no PreviewProps. Pass props with --props <file.json>.`);
  }
  if (outcome.reason === 'props-not-object') {
    return new ImprintError('INVALID_INPUT', 'Props must be a JSON object, e.g. {"customer": "ACME"}.');
  }
  const where = locateInTemplate(outcome.error?.stack, artifact.sourceMap);
  const at = where ? ` (at ${where.file}:${where.line}:${where.column})` : '';
  return new ImprintError('RENDER_FAILED', `The template ${artifact.sourceName} threw while rendering: ${outcome.error?.message ?? 'unknown error'}${at}`, {
    details: outcome.error?.componentStack?.trim(),
  });
}

export async function renderArtifact(
  browser: Browser,
  artifact: Artifact,
  props: unknown,
  request: PageRequest,
  timeoutMs: number,
): Promise<RenderedDocument> {
  const context = await browser.createBrowserContext();
  const work = (async () => {
    const page = await context.newPage();
    const loadErrors: Error[] = [];
    page.on('pageerror', (error) => loadErrors.push(error as Error));
    await page.setRequestInterception(true);
    page.on('request', routeTemplateRequest(templateResponses(artifact)));
    await page.goto(`${TEMPLATE_ORIGIN}/`, { waitUntil: 'load', timeout: timeoutMs });

    const ready = await page.evaluate(() => typeof window.__imprint?.render === 'function');
    if (!ready) {
      const first = loadErrors[0];
      const where = locateInTemplate(first?.stack, artifact.sourceMap);
      throw new ImprintError('RENDER_FAILED', `The template ${artifact.sourceName} failed to load in the page: ${first?.message ?? 'its script did not start'}${where ? ` (at ${where.file}:${where.line}:${where.column})` : ''}`);
    }
    const outcome = await page.evaluate((p) => window.__imprint.render(p), props as object);
    if (!outcome.ok) throw templateError(artifact, outcome);

    const css = outcome.cssPageSize ? parseCssPageSize(outcome.cssPageSize) : undefined;
    const setup = resolvePageSetup(request, css);
    const pdf = await printPdf(page, { setup, tagged: request.tagged, timeoutMs });
    return { pdf, usedPreviewProps: outcome.usedPreviewProps };
  })();
  try {
    return await withDeadline(timeoutMs, `Rendering ${artifact.sourceName}`, work, () => void context.close().catch(() => {}));
  } finally {
    await context.close().catch(() => {}); // already closed by the deadline, or the browser is gone
  }
}
