/**
 * The engine with its renders measured: every render's duration by kind, result form and
 * result, the phases the pool and the print marked (render-timing.ts), the generations counted
 * and refused, and the renders refused for a full queue. The engine itself knows nothing of
 * metrics; the service wraps it when metrics are on.
 */
import type { Engine, RenderFor } from '../../core/engine.js';
import { isImprintError } from '../../core/errors.js';
import type { OutputFormat } from '../../core/render-request.js';
import { timeRender, type RenderMarks } from '../../core/render/render-timing.js';
import type { HtmlSource } from '../../core/render/render-html.js';
import { teamLabel, type Metrics } from './metrics.js';

export type RenderKind = 'template' | 'html' | 'url';

/** A web page with injected HTML is loaded from its url first: it costs what a url costs. */
export const kindOf = (source: HtmlSource): RenderKind => (source.url ? 'url' : 'html');

const seconds = (fromMs: number | undefined, toMs: number | undefined) => (fromMs !== undefined && toMs !== undefined ? (toMs - fromMs) / 1000 : undefined);

export function meteredEngine(engine: Engine, metrics: Metrics): Engine {
  /** `teamId`: the team the render counts for; `format`: the result's form (a job's row is PDF bytes). */
  async function measured<T>(teamId: number, kind: RenderKind, format: OutputFormat, work: () => Promise<T>): Promise<T> {
    const marks: RenderMarks = {};
    const started = performance.now();
    let result = 'ok';
    try {
      const value = await timeRender(marks, work);
      metrics.generations.counted.inc(teamLabel(metrics, teamId));
      return value;
    } catch (error) {
      const code = isImprintError(error) ? error.code : 'INTERNAL';
      result = code.toLowerCase();
      if (code === 'BUSY') metrics.pool.rejected.inc();
      if (code === 'LIMIT_EXCEEDED') metrics.generations.refused.inc(teamLabel(metrics, teamId));
      throw error;
    } finally {
      metrics.render.duration.observe({ kind, format, result }, (performance.now() - started) / 1000);
      // Only the phases this render reached: a refused one was never queued, a failed one may not have printed.
      const phases = {
        queue: seconds(marks.queued, marks.admitted),
        load: seconds(marks.admitted, marks['print-start']),
        print: seconds(marks['print-start'], marks['print-end']),
      };
      for (const [phase, value] of Object.entries(phases)) if (value !== undefined) metrics.render.phase.observe({ phase, kind, format }, value);
    }
  }

  return {
    ...engine,
    renderDocument: (team, idOrUuid, props, options, version, signal) => measured(team.id, 'template', options.format, () => engine.renderDocument(team, idOrUuid, props, options, version, signal)),
    renderUnpublished: (team, artifact, props, options) => measured(team.id, 'template', options.format, () => engine.renderUnpublished(team, artifact, props, options)),
    generate: (team, source, options, signal) => measured(team.id, kindOf(source), options.format, () => engine.generate(team, source, options, signal)),
    // A job's rows are measured like requests: PDF bytes, counted as generations of the job's team.
    renderPinned: (caller: RenderFor, template, props, options) => measured(caller.teamId, 'template', 'pdf', () => engine.renderPinned(caller, template, props, options)),
    generatePdf: (caller: RenderFor, source, options) => measured(caller.teamId, kindOf(source), 'pdf', () => engine.generatePdf(caller, source, options)),
  };
}
