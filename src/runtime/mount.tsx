/**
 * The browser half of a template artifact. esbuild bundles this file together with the
 * template, so it runs inside the Chromium page and never in Node. It exposes
 * `window.__imprint.render(props)`, which renders the template and resolves once React has
 * committed, fonts have loaded and images have decoded: the moment the page is ready to print.
 */
import { Component, Suspense, useLayoutEffect, type ComponentType, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { ImprintPageApi, PageEInvoiceOutcome, PageInspection, PageRenderError, PageRenderHooks, PageRenderOutcome } from './page-protocol.js';
import { collectFields } from './form-fields.js';
import { frameDemand } from './frame-demand.js';
import { reactActivity } from './react-activity.js';

type TemplateComponent = ComponentType<Record<string, unknown>> & { PreviewProps?: unknown; metadata?: unknown; einvoice?: unknown };

declare global {
  interface Window {
    __imprint: ImprintPageApi;
  }
}

function describe(error: unknown, componentStack?: string): PageRenderError {
  if (error instanceof Error) return { message: error.message, stack: error.stack, componentStack };
  return { message: String(error), componentStack };
}

class ErrorBoundary extends Component<{ onError: (error: PageRenderError) => void; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: unknown, info: { componentStack?: string | null }) {
    this.props.onError(describe(error, info.componentStack ?? undefined));
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** Its layout effect runs after every descendant's, and only once nothing is suspended. */
function OnCommit({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useLayoutEffect(onCommit, [onCommit]);
  return <>{children}</>;
}

/** A task of its own, queued behind the ones already posted (React schedules its effects so). */
const nextTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

/**
 * Tasks in a row without a change, a commit or scheduled React work that count as quiet.
 * React runs a template's effects in a task after the commit; one task is the least, a few
 * leave room for work handed from task to task.
 */
const QUIET_TASKS = 3;
const ROUNDS_LIMIT = 400;
const TIME_LIMIT_MS = 2000;

/**
 * Waits for the work a template leaves for after the commit: React's passive effects
 * (useEffect) run in a later task and may render again, which may schedule more. Done when
 * a few tasks pass with no change to the document and no animation frame pending; bounded,
 * so a template that never stops changing is printed as it stands.
 */
async function quiesce(show: () => void): Promise<void> {
  let changed = false;
  const observer = new MutationObserver(() => (changed = true));
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const started = performance.now();
  let quiet = 0;
  try {
    for (let round = 0; round < ROUNDS_LIMIT && performance.now() - started < TIME_LIMIT_MS; round++) {
      changed = false;
      const commits = reactActivity.commits();
      // Rounds are frames while the template waits on them (observers report only in frames),
      // which must see the document.
      const frame = frameDemand.wanted();
      if (frame) show();
      await (frame ? frameDemand.nextFrame() : nextTask());
      // A commit counts even when it changed nothing visible: a chain of effects may be under way.
      const busy = changed || reactActivity.commits() !== commits || reactActivity.workPending() || frameDemand.owed();
      // What changed is laid out for the screen again (settle's layouts find its fonts).
      if (busy) show();
      quiet = busy ? 0 : quiet + 1;
      if (quiet === QUIET_TASKS) return;
    }
  } finally {
    observer.disconnect();
  }
}

/**
 * Style and layout, now: it is layout that finds which web fonts the text needs and starts
 * loading them (CSS background images too), so the waits below wait for the right ones.
 */
const layOut = () => void document.documentElement.offsetHeight;

/**
 * Waits until the document is what the print should show: a rendering update when the
 * template waits on one (frame callbacks, ResizeObserver and IntersectionObserver: see
 * frame-demand.ts), else a layout (which starts web font loads); then the work that follows
 * from it and from React's effects; then fonts loaded and images decoded. Printing lays the
 * document out again for paper and paints it itself, so no frame is needed for its own sake.
 */
async function settle(hooks: PageRenderHooks | undefined): Promise<string[]> {
  let shown = true;
  const show = () => {
    if (shown) return;
    shown = true;
    hooks?.screen?.(true);
  };
  if (frameDemand.wanted()) await frameDemand.nextFrame();
  else {
    layOut();
    // Laid out, so its fonts and images are found: while nothing changes, the screen need not
    // show it, and a frame that comes while the render settles paints nothing (about 1 ms of
    // a document's CPU across the renderer, its compositor and the GPU process). Shown again
    // for any change and any frame the template waits on (quiesce), so those are as before.
    if (hooks?.screen && !frameDemand.wanted()) {
      hooks.screen(false);
      shown = false;
    }
  }
  await quiesce(show);
  layOut();
  await document.fonts.ready;
  // A lazy image loads only once a frame finds it in view: those frames must see the document.
  const images = Array.from(document.images);
  if (images.some((image) => image.loading === 'lazy' && !image.complete)) show();
  const failedImages: string[] = [];
  await Promise.all(
    images.map((image) =>
      image.decode().catch(() => {
        failedImages.push(image.currentSrc || image.src);
      }),
    ),
  );
  // Images that arrived change the layout, and may bring text with other fonts into view.
  layOut();
  await document.fonts.ready;
  return failedImages;
}

/** The template's own `@page { size }`, read from its stylesheets (all same-origin here). */
function cssPageSize(): string | undefined {
  for (const sheet of Array.from(document.styleSheets)) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // a cross-origin sheet cannot be read; Chromium still applies it when printing
    }
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSPageRule && !rule.selectorText) {
        const size = rule.style.getPropertyValue('size');
        if (size) return size;
      }
    }
  }
  return undefined;
}

export function mount(Template: TemplateComponent) {
  let root: Root | undefined;
  const container = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));

  /** The props a render uses: the given ones, else the PreviewProps, else {} for a component without a parameter. */
  function resolveProps(props: unknown): { props: unknown; usedPreviewProps: boolean } | { failed: 'no-props' | 'props-not-object' } {
    let usedPreviewProps = false;
    if (props === undefined || props === null) {
      if (Template.PreviewProps !== undefined) {
        props = Template.PreviewProps;
        usedPreviewProps = true;
      } else if (typeof Template === 'function' && Template.length === 0) {
        // A component declared without a parameter takes no props: {} is all it can be given.
        props = {};
      } else {
        return { failed: 'no-props' };
      }
    }
    if (typeof props !== 'object' || Array.isArray(props)) return { failed: 'props-not-object' };
    return { props, usedPreviewProps };
  }

  /** The e-invoice model of these props, from the template's `einvoice` static; nothing is rendered. */
  function einvoice(given: unknown): PageEInvoiceOutcome {
    const resolved = resolveProps(given);
    if ('failed' in resolved) return { ok: false, reason: resolved.failed };
    if (typeof Template.einvoice !== 'function') return { ok: false, reason: 'no-einvoice' };
    try {
      // A JSON round trip, like metadata: only data crosses to Node, which checks all of it.
      const model = JSON.parse(JSON.stringify((Template.einvoice as (props: unknown) => unknown)(resolved.props)) ?? 'null');
      return { ok: true, usedPreviewProps: resolved.usedPreviewProps, model };
    } catch (error) {
      const described = describe(error);
      return { ok: false, reason: 'threw', error: { ...described, message: `its einvoice: ${described.message}` } };
    }
  }

  async function render(given: unknown, hooks?: PageRenderHooks): Promise<PageRenderOutcome> {
    const resolved = resolveProps(given);
    if ('failed' in resolved) return { ok: false, reason: resolved.failed };
    const { props, usedPreviewProps } = resolved;

    root?.unmount();
    // An error after the commit (in an effect) still fails the render: it would otherwise
    // print whatever the error boundary left, an empty page.
    let failure: PageRenderError | undefined;
    const outcome = await new Promise<PageRenderError | undefined>((resolve) => {
      const fail = (error: PageRenderError) => {
        failure ??= error;
        resolve(error);
      };
      root = createRoot(container, {
        onUncaughtError: (error, info) => fail(describe(error, info.componentStack ?? undefined)),
      });
      root.render(
        <ErrorBoundary onError={fail}>
          <Suspense fallback={null}>
            <OnCommit onCommit={() => resolve(undefined)}>
              <Template {...(props as Record<string, unknown>)} />
            </OnCommit>
          </Suspense>
        </ErrorBoundary>,
      );
    });
    if (outcome) return { ok: false, reason: 'threw', error: outcome };
    const failedImages = await settle(hooks);
    if (failure) return { ok: false, reason: 'threw', error: failure };
    // The document's Info fields, run here with the props like the template itself (Node only
    // reads the result); a JSON round trip, since only data may cross to Node.
    let metadata: unknown;
    try {
      const declared = Template.metadata;
      metadata = declared === undefined ? undefined : JSON.parse(JSON.stringify(typeof declared === 'function' ? declared(props) : declared) ?? 'null');
    } catch (error) {
      const described = describe(error);
      return { ok: false, reason: 'threw', error: { ...described, message: `its metadata: ${described.message}` } };
    }
    return { ok: true, usedPreviewProps, cssPageSize: cssPageSize(), failedImages, metadata, fields: collectFields() };
  }

  function reset() {
    root?.unmount();
    root = undefined;
  }

  /** What `imprint check` and `imprint dev` report after a render (see PageInspection). */
  function inspect(): PageInspection {
    const failedFonts = Array.from(document.fonts)
      .filter((face) => face.status === 'error')
      .map((face) => `${face.family} ${face.weight} ${face.style}`);
    // A JSON round trip: what the page hands back must survive the trip to Node unchanged.
    try {
      const previewProps = Template.PreviewProps === undefined ? undefined : JSON.parse(JSON.stringify(Template.PreviewProps));
      return { previewProps, failedFonts };
    } catch (error) {
      return { failedFonts, previewPropsError: (error as Error).message };
    }
  }

  window.__imprint = { render, reset, inspect, einvoice, framesWanted: frameDemand.wanted };
}
