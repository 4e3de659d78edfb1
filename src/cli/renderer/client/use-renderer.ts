/**
 * The hooks render and generate call: hand a single document to the warm renderer when it is
 * on, or answer undefined so the command renders in its own process, as it does with
 * --no-renderer. A renderer that is lost (cannot start, crashed, hangs) also answers
 * undefined: the command's own render is the one retry it costs.
 */
import type { DocumentRender } from '../../../core/engine.js';
import type { EgressDenial } from '../../../core/net/egress-proxy.js';
import type { RenderOptions } from '../../../core/render-request.js';
import type { HtmlSource } from '../../../core/render/render-html.js';
import type { RenderResult } from '../../../core/result-forms.js';
import type { CliContext } from '../../context.js';
import { openRenderer, RendererLost, type RendererConnection } from './renderer-client.js';
import { rendererEnabled } from '../renderer-settings.js';
import { rendererTargetFrom, type OpenRenderer } from '../renderer-target.js';
import { UnsafeRuntimeDir } from '../runtime-dir.js';
import type { RenderRequest } from '../wire.js';
import { warn } from '../../ui/status.js';

/** Where the renderer for this CLI's settings is, and how to start it. */
export const rendererTarget = (ctx: CliContext, allowLocal: boolean): OpenRenderer =>
  rendererTargetFrom({ dataDir: ctx.dataDir, browser: ctx.browserSettings, allowLocal, renderTimeoutMs: ctx.renderTimeoutMs, build: ctx.build, env: ctx.env });

export interface PendingRenderer {
  /** The connection, or undefined: render in this process. */
  connection(): Promise<RendererConnection | undefined>;
}

/**
 * Starts finding (or starting) the renderer now, so it comes up while the command reads its
 * input; undefined when the renderer is off. A bad IMPRINT_RENDERER* value is a usage error.
 */
export function reachRenderer(ctx: CliContext, allowLocal = false): PendingRenderer | undefined {
  if (!rendererEnabled(ctx.env, ctx.options.renderer)) return undefined;
  let target: OpenRenderer;
  try {
    target = rendererTarget(ctx, allowLocal);
  } catch (error) {
    // A folder another user planted or owns must not stop this user's render: it runs here.
    if (!(error instanceof UnsafeRuntimeDir)) throw error;
    warn(`${error.message} Rendering in this process.`);
    return undefined;
  }
  // Reached already from the entry point, for these same settings: that connection is the one.
  const ahead = ctx.rendererAhead;
  if (ahead?.key === target.spec.key) return { connection: () => ahead.connection };
  const opened = openRenderer(target).catch((error: unknown) => {
    if (error instanceof RendererLost) return undefined;
    throw error;
  });
  return { connection: () => opened };
}

/** Runs `work` on the renderer; undefined when it was lost, so the caller renders itself. */
async function onRenderer<T>(pending: PendingRenderer | undefined, work: (connection: RendererConnection) => Promise<T>): Promise<T | undefined> {
  const connection = await pending?.connection();
  if (!connection) return undefined;
  try {
    return await work(connection);
  } catch (error) {
    if (error instanceof RendererLost) return undefined;
    throw error;
  } finally {
    connection.close();
  }
}

/** `file`: a template file's absolute path, `ref` how the user named it. */
export const renderOnRenderer = (pending: PendingRenderer | undefined, call: Omit<RenderRequest, 'type'>): Promise<DocumentRender | undefined> =>
  onRenderer(pending, (connection) => connection.render({ type: 'render', ...call }));

export const generateOnRenderer = (pending: PendingRenderer | undefined, source: HtmlSource, options: RenderOptions, onDenied: (denial: EgressDenial) => void): Promise<RenderResult | undefined> =>
  onRenderer(pending, (connection) => connection.generate({ type: 'generate', source, options }, onDenied));
