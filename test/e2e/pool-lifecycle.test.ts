/**
 * The pool's lifecycle against a real Chromium: a full queue refused with BUSY (429), the
 * browser restarted after N renders, a browser killed mid-render (that render fails cleanly,
 * the next succeeds), a render past its deadline. One pool for the file; it replaces its
 * browser on purpose here.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Artifact } from '../../src/core/artifact.js';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { ImprintError } from '../../src/core/errors.js';
import { createBrowserProvider, launchedBrowsers } from '../../src/core/render/browser-provider.js';
import type { PoolEvent } from '../../src/core/render/pool-events.js';
import { createBrowserPool, type BrowserPool, type TemplateJob } from '../../src/core/render/pool.js';
import type { BrowserSource } from '../../src/core/render/browser-types.js';
import { INPUTS } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { renderHtml } from '../../src/core/render/render-html.js';
import { alive, chromiumUnder, eventually, procInfo, spinningChromium } from '../contract/helpers/faults.js';

const fixture = (name: string) => path.join(INPUTS, 'test', 'fixtures', 'pool', name);
const RESTART_AFTER = 3;

/** Waits up to 10 s for `check`, failing with `what`. */
async function expectEventually(check: () => boolean, what: string) {
  assert.ok(await eventually(check, 10_000), what);
}

describe('browser pool lifecycle', () => {
  const events: PoolEvent[] = [];
  let onRenderStart: ((event: Extract<PoolEvent, { type: 'render-start' }>) => void) | undefined;
  let pool: BrowserPool;
  let card: Artifact;
  let hang: Artifact;

  const job = (props: object, extra: Partial<TemplateJob> = {}): TemplateJob => ({
    isolationKey: 'team:1',
    artifactKey: 'card',
    artifact: card,
    props,
    request: {},
    timeoutMs: 20_000,
    ...extra,
  });
  const pids = () => [...new Set(events.flatMap((e) => (e.type === 'render-start' && e.pid ? [e.pid] : [])))];

  before(async () => {
    [card, hang] = await Promise.all([bundleTemplate(fixture('Card.tsx')), bundleTemplate(fixture('Hang.tsx'))]).then((built) => built.map((b) => b.artifact));
    pool = createBrowserProvider({
      search: {},
      runningAsRoot: process.getuid?.() === 0,
      pool: { concurrency: 1, maxQueue: 1, restartAfterRenders: RESTART_AFTER },
      log: (event) => {
        events.push(event);
        if (event.type === 'render-start') onRenderStart?.(event);
      },
    });
  });

  after(async () => {
    await pool.close();
  });

  test('a full queue refuses the next render at once with BUSY (HTTP 429) and a retry time', async () => {
    const first = pool.renderTemplate(job({ title: 'Q1' }));
    const second = pool.renderTemplate(job({ title: 'Q2' }));
    const third = pool.renderTemplate(job({ title: 'Q3' }));
    await assert.rejects(third, (error: unknown) => {
      assert.ok(error instanceof ImprintError);
      assert.equal(error.code, 'BUSY');
      assert.equal(error.httpStatus, 429);
      assert.ok(error.retryAfterSeconds !== undefined && error.retryAfterSeconds >= 1, `retryAfterSeconds: ${error.retryAfterSeconds}`);
      return true;
    });
    const done = await Promise.all([first, second]);
    assert.match(pdfText(done[0].pdf), /Card Q1/);
    assert.match(pdfText(done[1].pdf), /Card Q2/);
    const after = await pool.renderTemplate(job({ title: 'Q4' }));
    assert.match(pdfText(after.pdf), /Card Q4/, 'once the queue drained, renders are taken again');
  });

  test(`the browser is replaced after ${RESTART_AFTER} renders, and the old one exits`, async () => {
    // Which browser (process) each of these renders ran on, from the pool's own events.
    const renderPids: number[] = [];
    onRenderStart = (event) => renderPids.push(event.pid!);
    try {
      for (let i = 0; i < RESTART_AFTER * 3; i++) {
        const doc = await pool.renderTemplate(job({ title: `R${i}` }));
        assert.match(pdfText(doc.pdf), new RegExp(`Card R${i}\\b`));
      }
    } finally {
      onRenderStart = undefined;
    }
    // The run starts somewhere in a browser's lifetime; from the first change on, every browser
    // serves exactly RESTART_AFTER renders.
    const firstChange = renderPids.findIndex((pid) => pid !== renderPids[0]);
    assert.ok(firstChange > 0 && firstChange <= RESTART_AFTER, `pids: ${renderPids.join(' ')}`);
    const full = renderPids.slice(firstChange, firstChange + RESTART_AFTER);
    assert.equal(new Set(full).size, 1, `one browser for ${RESTART_AFTER} renders: ${renderPids.join(' ')}`);
    const next = renderPids[firstChange + RESTART_AFTER];
    if (next !== undefined) assert.notEqual(next, full[0], `then another: ${renderPids.join(' ')}`);
    const retired = [...new Set(renderPids)].filter((pid) => pid !== renderPids.at(-1));
    await expectEventually(() => retired.every((pid) => !alive(pid)), `retired browsers ${retired.join(', ')} have exited`);
    assert.ok(events.some((e) => e.type === 'retire' && e.reason === 'restart-after' && e.renders === RESTART_AFTER));
  });

  test('a browser killed mid-render fails that render with BROWSER_FAILED; the next render succeeds', async () => {
    await pool.renderTemplate(job({ title: 'BeforeCrash' }));
    let killed: number | undefined;
    onRenderStart = (event) => {
      onRenderStart = undefined;
      killed = event.pid;
      process.kill(event.pid!, 'SIGKILL'); // the real Chromium process, as a crash or the OOM killer would
    };
    await assert.rejects(pool.renderTemplate(job({ title: 'DuringCrash' })), (error: unknown) => {
      assert.ok(error instanceof ImprintError, `an ImprintError, got ${String(error)}`);
      assert.equal(error.code, 'BROWSER_FAILED');
      assert.match(error.message, /try again/);
      return true;
    });
    assert.ok(killed !== undefined, 'the render started on a browser the pool launched');
    await expectEventually(() => !alive(killed!), 'the killed browser is gone');
    assert.ok(events.some((e) => e.type === 'crash'));
    const next = await pool.renderTemplate(job({ title: 'AfterCrash' }));
    assert.match(pdfText(next.pdf), /Card AfterCrash/);
    assert.notEqual(pids().at(-1), killed, 'a new browser');
  });

  test('a render past its deadline fails with RENDER_TIMEOUT and leaves the pool working', async () => {
    await assert.rejects(pool.renderTemplate(job({}, { artifact: hang, artifactKey: 'hang', timeoutMs: 1500 })), (error: unknown) => {
      assert.ok(error instanceof ImprintError);
      assert.equal(error.code, 'RENDER_TIMEOUT');
      return true;
    });
    const next = await pool.renderTemplate(job({ title: 'AfterTimeout' }));
    assert.match(pdfText(next.pdf), /Card AfterTimeout/);
  });

  test('time waiting in the queue counts: a job whose deadline passes there fails and never opens a page', async () => {
    const startsBefore = events.filter((e) => e.type === 'render-start').length;
    const hanging = pool.renderTemplate(job({}, { artifact: hang, artifactKey: 'hang', timeoutMs: 2500 }));
    const queued = pool.renderTemplate(job({ title: 'Queued' }, { timeoutMs: 800 }));
    await assert.rejects(queued, (error: unknown) => error instanceof ImprintError && error.code === 'RENDER_TIMEOUT');
    await assert.rejects(hanging, (error: unknown) => error instanceof ImprintError && error.code === 'RENDER_TIMEOUT');
    const next = await pool.renderTemplate(job({ title: 'AfterQueue' }));
    assert.match(pdfText(next.pdf), /Card AfterQueue/);
    const starts = events.filter((e) => e.type === 'render-start').length - startsBefore;
    assert.equal(starts, 2, 'the hanging render and the one after it started; the expired job did not');
  });

  test('a pool left idle closes its browser, and launches one again for the next render', async () => {
    // Its own short-lived pool: the idle time is fixed when a pool is made.
    const idleEvents: PoolEvent[] = [];
    const idle = createBrowserProvider({ search: {}, runningAsRoot: process.getuid?.() === 0, pool: { concurrency: 1, idleShutdownMs: 300 }, log: (e) => idleEvents.push(e) });
    try {
      await idle.renderTemplate(job({ title: 'BeforeIdle' }));
      const started = idleEvents.find((e): e is Extract<PoolEvent, { type: 'render-start' }> => e.type === 'render-start');
      const pid = started!.pid!;
      await expectEventually(() => !alive(pid), 'the idle browser exited');
      assert.equal(idle.stats().browserRunning, false);
      assert.ok(idleEvents.some((e) => e.type === 'retire' && e.reason === 'idle'));
      const next = await idle.renderTemplate(job({ title: 'AfterIdle' }));
      assert.match(pdfText(next.pdf), /Card AfterIdle/);
      assert.equal(idleEvents.filter((e) => e.type === 'launch').length, 2);
    } finally {
      await idle.close();
    }
  });

  test('close() shuts the browser down; a closed pool refuses work', async () => {
    await pool.browser();
    const pid = pool.stats().browserPid!;
    await pool.close();
    await expectEventually(() => !alive(pid), 'the browser process exited');
    await assert.rejects(pool.renderTemplate(job({ title: 'Late' })), /closed/);
  });
});

test('a browser that starts too slowly counts against the deadline; the render after it uses that browser', async () => {
  const launched = launchedBrowsers({ search: {}, runningAsRoot: process.getuid?.() === 0 });
  // A real launch, held back as a loaded machine would: the first render's deadline passes during it.
  const slow: BrowserSource = { open: async () => (await new Promise((resolve) => setTimeout(resolve, 1500)), launched.open()) };
  const pool = createBrowserPool({ source: slow, concurrency: 1 });
  const [card] = await Promise.all([bundleTemplate(fixture('Card.tsx'))]).then((built) => built.map((b) => b.artifact));
  try {
    const started = performance.now();
    await assert.rejects(
      pool.renderTemplate({ isolationKey: 'team:1', artifactKey: 'card', artifact: card, props: { title: 'TooSoon' }, request: {}, timeoutMs: 500 }),
      (error: ImprintError) => error.code === 'RENDER_TIMEOUT' && /did not finish within 0\.5 s/.test(error.message),
    );
    const waited = performance.now() - started;
    assert.ok(waited < 1400, `answered at the deadline, not after the launch (${Math.round(waited)} ms)`);
    const next = await pool.renderTemplate({ isolationKey: 'team:1', artifactKey: 'card', artifact: card, props: { title: 'InTime' }, request: {}, timeoutMs: 20_000 });
    assert.match(pdfText(next.pdf), /InTime/);
    assert.equal(pool.stats().active, 0);
  } finally {
    await pool.close();
  }
});

test('a context whose opening outlasts the deadline is closed as soon as it opens: a spinning page does not outlive its 504', async () => {
  const launched = launchedBrowsers({ search: {}, runningAsRoot: process.getuid?.() === 0 });
  // Nothing listens behind this port; the HTML below needs no network. What matters is that the
  // fresh context's opening is held back past the render's deadline, as a loaded machine would.
  let opened!: () => void;
  const contextOpened = new Promise<void>((resolve) => (opened = resolve));
  const slowContexts: BrowserSource = {
    ...launched,
    freshContextProxy: async () => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      setTimeout(opened, 500); // time for the page to open and start spinning, were it let
      return 9;
    },
  };
  const pool = createBrowserPool({ source: slowContexts, concurrency: 1 });
  try {
    await pool.browser(); // the launch is not what this is about
    await assert.rejects(
      renderHtml(pool, 'team:1', { html: '<h1>Spinning</h1><script>while (true) {}</script>' }, {}, 400),
      (error: ImprintError) => error.code === 'RENDER_TIMEOUT',
    );
    await contextOpened;
    let spinning: Awaited<ReturnType<typeof spinningChromium>> = [];
    const quiet = await eventually(async () => (spinning = await spinningChromium(process.pid)).length === 0, 3000);
    assert.ok(quiet, `a Chromium process still burns CPU 3 s after the context opened: ${JSON.stringify(spinning)}`);
    const browser = await pool.browser();
    assert.ok(await eventually(() => browser.browserContexts().length === 1, 3000), 'the fresh context is closed; only the default one is left');
  } finally {
    await pool.close();
  }
});

test('killOnClose: close() kills the browser and every process of it, and removes its profile', async () => {
  const pool = createBrowserProvider({ search: {}, runningAsRoot: process.getuid?.() === 0, pool: { concurrency: 1, killOnClose: true } });
  const [card] = await Promise.all([bundleTemplate(fixture('Card.tsx'))]).then((built) => built.map((b) => b.artifact));
  const rendered = await pool.renderTemplate({ isolationKey: 'team:1', artifactKey: 'card', artifact: card, props: { title: 'Killed' }, request: {}, timeoutMs: 20_000 });
  assert.match(pdfText(rendered.pdf), /Killed/);
  const pid = pool.stats().browserPid!;
  const chromium = await chromiumUnder(pid);
  const profile = /--user-data-dir=(\S+)/.exec(procInfo(pid)!.cmdline)?.[1];
  assert.ok(chromium.length >= 3 && profile, `a browser with its helpers and a profile: ${chromium.length} processes, ${profile}`);
  await pool.close();
  assert.equal(fs.existsSync(profile!), false, `the profile ${profile} is removed by the time close() resolves`);
  // Its helpers go to init, which reaps them; none may keep running.
  assert.ok(await eventually(() => [pid, ...chromium.map((p) => p.pid)].every((pid) => !alive(pid)), 3000), 'every Chromium process is gone');
});
