/**
 * The browser pool both faces render through (embedded CLI and server): admission (a bounded
 * number of pages at work, a bounded queue, BUSY beyond it), browser generations (restart
 * after N renders, relaunch after a crash, closed when idle) and warm template pages per
 * isolation key. It is a BrowserProvider too, so code that only needs "the browser" (health
 * checks) keeps working. Its browsers come from a BrowserSource (browser-provider.ts launches
 * them); the pool supervises them without knowing how they were started.
 */
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import type { Artifact } from '../artifact.js';
import { ImprintError, isImprintError } from '../errors.js';
import type { BrowserProvider, BrowserSource } from './browser-types.js';
import { formatSeconds, renderTimeout } from './deadline.js';
import { createGate } from './pool-gate.js';
import { createBrowserGenerations, type Generation } from './pool-browser.js';
import type { PoolLog } from './pool-events.js';
import type { TemplateNetwork } from '../net/template-network.js';
import type { PageLease } from './pool-pages.js';
import { resolvePoolSettings, type PoolOptions } from './pool-options.js';
import type { CheckedEInvoice, EInvoiceCheck, PrintRequest, RenderedDocument } from './render-types.js';
import { markRender } from './render-timing.js';
import { einvoiceOnTemplatePage, openTemplatePage, renderOnTemplatePage, type TemplatePage } from './template-page.js';
import type { SpoolPolicy } from '../spool/spool-policy.js';
import { disposeOutcome } from '../spool/spooled-pdf.js';

const cancelled = (what: string) => new ImprintError('RENDER_FAILED', `${what} was cancelled: its caller stopped waiting.`);

const queueTimeout = (what: string, timeoutMs: number) =>
  new ImprintError('RENDER_TIMEOUT', `${what} waited in the queue for its whole deadline (${formatSeconds(timeoutMs)}): every render slot stayed busy. Try again, or raise the concurrency.`);

/** Work on a warm page holding a template: a render, or its e-invoice alone. */
export interface TemplatePageJob {
  /** Whose render this is (a team): renders of different keys never share a browser context. */
  isolationKey: string;
  /** Identifies the artifact's content (its sha256), so a warm page is reused only for the same one. */
  artifactKey: string;
  artifact: Artifact;
  props: unknown;
  timeoutMs: number;
  /** The caller gave up (a CLI interrupted with Ctrl-C): the render stops as at its deadline. */
  signal?: AbortSignal;
}

export interface TemplateJob<Invoice = never> extends TemplatePageJob {
  request: PrintRequest;
  /** The template's e-invoice model, computed and checked before the render (render-types.ts). */
  einvoice?: EInvoiceCheck<Invoice>;
}

/** A render whose print may go to a file (spool/spool-policy.ts): the engine's. */
export type SpoolingJob<Invoice = never> = TemplateJob<Invoice> & { spool: SpoolPolicy | undefined };

/** The template's e-invoice alone: its model computed in the page and checked, nothing printed. */
export interface EInvoiceJob<Invoice> extends TemplatePageJob {
  einvoice: EInvoiceCheck<Invoice>;
}

export interface ContextJob {
  isolationKey: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** For the timeout message: "Rendering https://example.org". */
  what: string;
}

export interface PoolStats {
  concurrency: number;
  active: number;
  queued: number;
  /** Whether a browser is running now (it is launched on demand). */
  browserRunning: boolean;
  generation?: number;
  /** The running browser's process. */
  browserPid?: number;
  rendersOnBrowser?: number;
  warmPages: number;
}

export interface BrowserPool extends BrowserProvider {
  /** `spool`: when the print goes to a file (spool/spool-policy.ts); without one it is a Buffer (render/print-pdf.ts). */
  renderTemplate<Invoice = never>(job: SpoolingJob<Invoice>): Promise<RenderedDocument<Invoice>>;
  renderTemplate<Invoice = never>(job: TemplateJob<Invoice>): Promise<RenderedDocument<Invoice, Buffer>>;
  templateEInvoice<Invoice>(job: EInvoiceJob<Invoice>): Promise<CheckedEInvoice<Invoice>>;
  /** Runs `work` in a browser context of its own, closed afterwards (generate's web pages). */
  withFreshContext<T>(job: ContextJob, work: (context: BrowserContext) => Promise<T>): Promise<T>;
  /** Pages at work at once; takes effect for the next render. */
  setConcurrency(concurrency: number): void;
  stats(): PoolStats;
}

export interface BrowserPoolOptions extends PoolOptions {
  source: BrowserSource;
  /** Requests a template's page may send out (the operator's allow-list); none when absent. */
  templateNetwork?: TemplateNetwork;
  log?: PoolLog;
}

/** Until renders have been timed, the Retry-After estimate assumes this much per render. */
const INITIAL_RENDER_MS = 500;

function crashed(error: unknown): ImprintError {
  return new ImprintError('BROWSER_FAILED', 'Chromium stopped during the render (it crashed or was killed). It is started again for the next render; try again.', {
    cause: error,
  });
}

/** Puppeteer's error classes, by name: importing them would load Puppeteer before it is needed. */
const PUPPETEER_ERRORS = new Set(['ProtocolError', 'TargetCloseError', 'TimeoutError']);

/** Errors of the browser connection become ImprintErrors; ours and programming errors pass. */
function translate(generation: Generation, error: unknown): unknown {
  if (isImprintError(error)) return error;
  if (generation.disconnected || !generation.browser.connected) return crashed(error);
  if (error instanceof Error && PUPPETEER_ERRORS.has(error.name)) {
    return new ImprintError('RENDER_FAILED', `The page failed during the render: ${error.message.split('\n')[0]}`, { cause: error });
  }
  return error;
}

export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  const settings = resolvePoolSettings(options);
  const log: PoolLog = options.log ?? (() => {});
  const now = () => performance.now();
  let typicalRenderMs = INITIAL_RENDER_MS;
  let idleTimer: NodeJS.Timeout | undefined;
  let closed = false;

  const gate = createGate({ concurrency: settings.concurrency, maxQueue: settings.maxQueue, typicalRenderMs: () => typicalRenderMs });
  const generations = createBrowserGenerations({
    source: options.source,
    restartAfterRenders: settings.restartAfterRenders,
    warmPages: settings.warmPages,
    pageRecycleAfter: settings.pageRecycleAfter,
    pageHeapGrowthLimitMiB: settings.pageHeapGrowthLimitMiB,
    log,
    now,
  });

  function armIdleTimer() {
    if (settings.idleShutdownMs === 0 || closed) return;
    if (gate.active + gate.queued > 0) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (gate.active + gate.queued === 0) generations.retireCurrent('idle');
    }, settings.idleShutdownMs);
    idleTimer.unref(); // never what keeps a process alive
  }

  /**
   * Admission, a browser generation, the deadline, and error translation around one render.
   * The deadline is one timer, started at the request: time spent waiting in the queue counts.
   * When it fires, a caller still queued is answered at once, and its job is dropped without
   * opening a page when its turn comes; a render under way has its page closed and is answered
   * once its slot is free (so a retry finds the slot free).
   */
  function schedule<T>(timeoutMs: number, what: string, work: (generation: Generation, onExpire: (abort: () => void) => void) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (closed) return Promise.reject(new ImprintError('INTERNAL', 'The browser pool is closed: no more renders are taken.'));
    markRender('queued');
    let admittedYet = false;
    let expired = false;
    let abort: (() => void) | undefined;
    let answerQueued!: (error: ImprintError) => void;
    let answerRunning!: (error: ImprintError) => void;
    const queuedTooLong = new Promise<never>((_, reject) => (answerQueued = reject));
    const ranTooLong = new Promise<never>((_, reject) => (answerRunning = reject));
    const deadline = setTimeout(() => {
      expired = true;
      if (!admittedYet) return answerQueued(queueTimeout(what, timeoutMs));
      abort?.();
      answerRunning(renderTimeout(what, timeoutMs));
    }, timeoutMs);
    // A cancellation ends the render the way its deadline would, with its own answer.
    const cancel = () => {
      if (expired) return;
      expired = true;
      clearTimeout(deadline);
      if (!admittedYet) return answerQueued(cancelled(what));
      abort?.();
      answerRunning(cancelled(what));
    };
    if (signal?.aborted) cancel();
    else signal?.addEventListener('abort', cancel, { once: true });

    const admitted = gate.run(async () => {
      if (expired) throw queueTimeout(what, timeoutMs);
      admittedYet = true;
      markRender('admitted');
      clearTimeout(idleTimer);
      const started = now();
      let generation: Generation | undefined;
      // The browser's launch, when this render needs one, counts against the deadline too.
      const running = generations.acquire().then((acquired) => {
        if (expired) {
          // The caller has had its answer (the deadline's); the browser came too late to use.
          generations.release(acquired);
          throw new ImprintError('RENDER_TIMEOUT', `${what}: the browser started after the deadline.`);
        }
        generation = acquired;
        // A page opened after the deadline (its opening took the rest of the time) is closed as
        // soon as the work names it: nothing else would stop a page that spins forever.
        return work(acquired, (fn) => (expired ? fn() : (abort = fn)));
      });
      // A print that lands after the caller had its answer (the deadline's, a cancellation's)
      // has no one to deliver it: a spooled one's file is removed here. Its failure, if it
      // fails, is the race's below, answered there.
      running.then(
        (value) => {
          if (expired) discardSpooled(value, generation?.id ?? 0);
        },
        () => undefined,
      );
      try {
        return await Promise.race([running, ranTooLong]);
      } catch (error) {
        throw generation ? translate(generation, error) : error;
      } finally {
        if (generation) generations.release(generation);
        typicalRenderMs = typicalRenderMs * 0.8 + (now() - started) * 0.2;
      }
    });
    return Promise.race([admitted, queuedTooLong]).finally(() => {
      clearTimeout(deadline);
      signal?.removeEventListener('abort', cancel);
      armIdleTimer();
    });
  }

  /** A late result's spooled PDF (spool/spooled-pdf.ts) removed; a removal that fails is logged. */
  function discardSpooled(value: unknown, generation: number): void {
    disposeOutcome(value).catch((error: unknown) => log({ type: 'cleanup-failed', generation, what: 'removing a spooled PDF that came too late', error }));
  }

  /** How a page for the job's template is loaded: for a render (lease) and ahead of one (openAhead) alike. */
  const openJobPage = (job: TemplatePageJob) => (page: Page) => openTemplatePage(page, job.artifact, job.timeoutMs, options.templateNetwork);

  /** One page opened ahead at a time, pool-wide: it is background work. */
  let openingAhead = false;
  /**
   * That work while it runs, and how to give it up: close() waits for it and closes its page
   * before closing the browser. A page still being created when the browser goes is never
   * answered, and puppeteer's wait for it (a 30 s timer) held a stopped service's process open
   * that long.
   */
  let aheadWork: Promise<void> | undefined;
  let abandonAhead: (() => void) | undefined;

  /**
   * After a render on a warm page (the template is rendered again): its other pages, up to the
   * concurrency, opened one at a time in a free slot (PoolSettings.openAhead). Only while
   * nothing waits, and never evicting another template's idle page; a failure is logged, and
   * the next render opens its page as it would have.
   */
  function openAhead(job: TemplatePageJob) {
    const wanted = (generation: Generation) =>
      generation.pages.pagesOf(job.isolationKey, job.artifactKey) < gate.concurrency && generation.pages.roomForOneMore();
    const current = generations.current();
    // This render still holds its slot: a free one means active < concurrency with none queued.
    if (!settings.openAhead || closed || openingAhead || !current || gate.queued > 0 || gate.active >= gate.concurrency || !wanted(current)) return;
    openingAhead = true;
    const openUnlessClosed = (page: Page) => {
      if (closed) throw new ImprintError('INTERNAL', 'The browser pool closed while a page was opened ahead.');
      abandonAhead = () => void page.close().catch((error: unknown) => log({ type: 'cleanup-failed', generation: current.id, what: 'closing a page opened ahead', error }));
      return openJobPage(job)(page);
    };
    aheadWork = gate
      .run(async () => {
        const generation = generations.holdCurrent();
        if (!generation) return;
        try {
          if (!closed && wanted(generation)) {
            await generation.pages.openAhead(job.isolationKey, job.artifactKey, openUnlessClosed);
          }
        } finally {
          abandonAhead = undefined;
          generations.release(generation);
        }
      })
      .catch((error: unknown) => {
        // Given up by close(): the page was not wanted any more, nothing failed.
        if (!closed) log({ type: 'cleanup-failed', generation: current.id, what: 'opening a page ahead', error });
      })
      .finally(() => {
        openingAhead = false;
        aheadWork = undefined;
        armIdleTimer();
      });
  }

  async function leaseTemplatePage(generation: Generation, job: TemplatePageJob): Promise<PageLease<TemplatePage>> {
    return generation.pages.lease(job.isolationKey, job.artifactKey, openJobPage(job));
  }

  /** `work` on a leased page of the job's template, in a slot, within the job's deadline. */
  function onTemplatePage<T>(job: TemplatePageJob, work: (page: TemplatePage) => Promise<T | 'dirty'>): Promise<T> {
    return schedule(job.timeoutMs, `Rendering ${job.artifact.sourceName}`, async (generation, onExpire) => {
      // A warm page that kept something of an earlier render is replaced; a new page cannot be dirty.
      for (let attempt = 1; ; attempt++) {
        const lease = await leaseTemplatePage(generation, job);
        onExpire(() => void lease.page.close().catch((error: unknown) => log({ type: 'cleanup-failed', generation: generation.id, what: 'closing a timed-out page', error })));
        log({ type: 'render-start', generation: generation.id, warm: lease.warm, pid: generation.pid });
        let outcome: T | 'dirty';
        try {
          outcome = await work(lease.state);
        } catch (error) {
          await generation.pages.release(lease, false, 'failed');
          throw error;
        }
        if (outcome !== 'dirty') {
          await generation.pages.release(lease, true);
          if (lease.warm) openAhead(job);
          return outcome;
        }
        await generation.pages.release(lease, false, 'dirty');
        if (!lease.warm || attempt > settings.warmPages) {
          throw new ImprintError('INTERNAL', `The page runtime reported a fresh page of ${job.artifact.sourceName} as dirty; publish the template again with this version of imprint.`);
        }
      }
    }, job.signal);
  }

  const pool: BrowserPool = {
    // One body for both overloads: without a spool policy the print is a Buffer (print-pdf.ts).
    renderTemplate: (<Invoice>(job: TemplateJob<Invoice> & { spool?: SpoolPolicy }) =>
      onTemplatePage(job, (page) => renderOnTemplatePage(page, job.props, job.request, job.einvoice, undefined, job.spool))) as BrowserPool['renderTemplate'],

    templateEInvoice(job) {
      return onTemplatePage(job, (page) => einvoiceOnTemplatePage(page, job.props, job.einvoice));
    },

    withFreshContext(job, work) {
      return schedule(job.timeoutMs, job.what, async (generation, onExpire) => {
        const context = await generation.pages.freshContext();
        const closeContext = () => context.close().catch((error: unknown) => log({ type: 'cleanup-failed', generation: generation.id, what: 'closing a browser context', error }));
        onExpire(() => void closeContext());
        log({ type: 'render-start', generation: generation.id, warm: false, pid: generation.pid });
        try {
          return await work(context);
        } finally {
          await closeContext();
        }
      }, job.signal);
    },

    setConcurrency(concurrency) {
      gate.setConcurrency(resolvePoolSettings({ concurrency }).concurrency);
    },

    stats() {
      const current = generations.current();
      return {
        concurrency: gate.concurrency,
        active: gate.active,
        queued: gate.queued,
        browserRunning: Boolean(current && !current.disconnected),
        generation: current?.id,
        browserPid: current?.pid,
        rendersOnBrowser: current?.renders,
        warmPages: current?.pages.idleCount() ?? 0,
      };
    },

    browser(): Promise<Browser> {
      return generations.browser();
    },

    async close() {
      closed = true;
      clearTimeout(idleTimer);
      abandonAhead?.();
      await aheadWork;
      await generations.closeAll(settings.killOnClose);
    },
  };
  return pool;
}
