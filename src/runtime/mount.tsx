/**
 * The browser half of a template artifact. esbuild bundles this file together with the
 * template, so it runs inside the Chromium page and never in Node. It exposes
 * `window.__imprint.render(props)`, which renders the template and resolves once React has
 * committed, fonts have loaded and images have decoded: the moment the page is ready to print.
 */
import { Component, Suspense, useLayoutEffect, type ComponentType, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { ImprintPageApi, PageInspection, PageRenderError, PageRenderOutcome } from './page-protocol.js';

type TemplateComponent = ComponentType<Record<string, unknown>> & { PreviewProps?: unknown };

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

/**
 * Style and layout, now: it is layout that finds which web fonts the text needs and starts
 * loading them (CSS background images too), so the waits below wait for the right ones.
 */
const layOut = () => void document.documentElement.offsetHeight;

/**
 * Waits until what the print needs has arrived: fonts loaded, images decoded. No animation
 * frame is awaited: printing lays the document out again for paper and paints it itself, so
 * a screen frame adds only its wait (up to two frame intervals per render).
 */
async function settle(): Promise<string[]> {
  layOut();
  await document.fonts.ready;
  const failedImages: string[] = [];
  await Promise.all(
    Array.from(document.images).map((image) =>
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

  async function render(props: unknown): Promise<PageRenderOutcome> {
    let usedPreviewProps = false;
    if (props === undefined || props === null) {
      if (Template.PreviewProps === undefined) return { ok: false, reason: 'no-props' };
      props = Template.PreviewProps;
      usedPreviewProps = true;
    }
    if (typeof props !== 'object' || Array.isArray(props)) return { ok: false, reason: 'props-not-object' };

    root?.unmount();
    const outcome = await new Promise<PageRenderError | undefined>((resolve) => {
      root = createRoot(container, {
        onUncaughtError: (error, info) => resolve(describe(error, info.componentStack ?? undefined)),
      });
      root.render(
        <ErrorBoundary onError={resolve}>
          <Suspense fallback={null}>
            <OnCommit onCommit={() => resolve(undefined)}>
              <Template {...(props as Record<string, unknown>)} />
            </OnCommit>
          </Suspense>
        </ErrorBoundary>,
      );
    });
    if (outcome) return { ok: false, reason: 'threw', error: outcome };
    const failedImages = await settle();
    return { ok: true, usedPreviewProps, cssPageSize: cssPageSize(), failedImages };
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

  window.__imprint = { render, reset, inspect };
}
