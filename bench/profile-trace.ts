/**
 * `npx tsx bench/profile-trace.ts [docs]`: a Chromium trace of the batch's per-document work
 * against the floor's, in process, on two warm template pages (the batch's concurrency here).
 * Two passes over the same pages, `docs` documents each at concurrency 2: `print` (the print
 * step alone on a rendered page: the floor) and `render` (the call into the page, then the
 * print: a batch document). Each pass is traced over the browser's CDP session
 * (Tracing.start: toplevel, devtools.timeline, v8, blink categories), and the events are summed
 * per document:
 *
 *   - busy CPU per thread kind (the thread time of `RunTask`/`ThreadControllerImpl::RunTask`,
 *     top-level tasks), by process type;
 *   - on the renderer's main thread, self CPU time by event name (an event's thread time less
 *     that of the events nested in it), the largest first, for both passes side by side.
 *
 * `--open` traces the batch's start instead: two template pages opened and a first render on
 * each (both columns then hold the same figures). TRACE_DETAIL=1 names tasks by where they were
 * posted and script by function; TRACE_PROCESS=Browser lists the browser's main thread instead
 * of the renderer's; TRACE_THREAD=<name prefix> adds a renderer thread (ThreadPoolForegroundWorker);
 * TRACE_FLAGS="<flag>|<flag>" starts Chromium with these flags too.
 *
 * The trace itself costs CPU, and it sees only threads' own time, not a process's start (the
 * print compositor's) nor the kernel's: its totals run below profile-document.ts's /proc
 * figures; the split is what it is for. Not a test: it measures and prints.
 */
import os from 'node:os';
import type { CDPSession } from 'puppeteer-core';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../src/core/render/find-browser.js';
import { launchBrowser } from '../src/core/render/launch-browser.js';
import { plannedPageSetup, printPage } from '../src/core/render/print-pdf.js';
import { openTemplatePage, renderOnTemplatePage, type TemplatePage } from '../src/core/render/template-page.js';
import { INVOICE, invoiceProps } from './lib/invoice.js';

const docs = Number(process.argv[2] ?? 100);
const concurrency = 2;
const CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink', 'blink.user_timing', 'loading'];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  tts?: number;
  args?: { name?: string; data?: unknown };
}

async function traced(session: CDPSession, work: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const onData = (data: { value: TraceEvent[] }) => events.push(...data.value);
  session.on('Tracing.dataCollected', onData);
  await session.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: CATEGORIES, excludedCategories: ['*'] } });
  await work();
  const complete = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
  await session.send('Tracing.end');
  await complete;
  session.off('Tracing.dataCollected', onData);
  return events;
}

interface Split {
  /** Busy thread time per "process type / thread name", ms per document. */
  busy: Map<string, number>;
  /** Self thread time on the listed threads (the renderer's main one), by event name, ms per document. */
  selfMain: Map<string, number>;
}

const LISTED_PROCESS = process.env.TRACE_PROCESS ?? 'Renderer';
const LISTED_THREAD = LISTED_PROCESS === 'Browser' ? 'CrBrowserMain' : 'CrRendererMain';
const EXTRA_THREAD = process.env.TRACE_THREAD;
const TOP_LEVEL = new Set(['ThreadControllerImpl::RunTask', 'RunTask', 'ThreadPool_RunTask', 'TaskScheduler_RunTask']);

function split(events: TraceEvent[], n: number): Split {
  const processType = new Map<number, string>();
  const threadName = new Map<string, string>();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    if (e.name === 'process_name') processType.set(e.pid, String(e.args?.name ?? ''));
    if (e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, String(e.args?.name ?? ''));
  }
  // B/E pairs become complete events, so every event is an interval of wall and thread time.
  const intervals: TraceEvent[] = [];
  const open = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph === 'X') intervals.push(e);
    else if (e.ph === 'B') {
      const key = `${e.pid}:${e.tid}`;
      open.set(key, [...(open.get(key) ?? []), e]);
    } else if (e.ph === 'E') {
      const stack = open.get(`${e.pid}:${e.tid}`);
      const begin = stack?.pop();
      if (begin) intervals.push({ ...begin, ph: 'X', dur: e.ts - begin.ts, tdur: e.tts !== undefined && begin.tts !== undefined ? e.tts - begin.tts : undefined });
    }
  }
  const busy = new Map<string, number>();
  const selfMain = new Map<string, number>();
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of intervals) {
    const key = `${e.pid}:${e.tid}`;
    byThread.set(key, [...(byThread.get(key) ?? []), e]);
  }
  const cpu = (e: TraceEvent) => (e.tdur ?? e.dur ?? 0) / 1000;
  for (const [key, list] of byThread) {
    const pid = Number(key.split(':')[0]);
    const thread = threadName.get(key) ?? 'thread';
    const where = `${processType.get(pid) ?? 'process'} / ${thread.replace(/\d+$/, '')}`;
    list.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    // Top-level tasks: those not inside another event of the thread.
    let end = -Infinity;
    for (const e of list) {
      if (e.ts >= end && TOP_LEVEL.has(e.name)) {
        busy.set(where, (busy.get(where) ?? 0) + cpu(e) / n);
        end = e.ts + (e.dur ?? 0);
      }
    }
    const listed = processType.get(pid) === LISTED_PROCESS && (thread === LISTED_THREAD || (EXTRA_THREAD !== undefined && thread.startsWith(EXTRA_THREAD)));
    if (!listed) continue;
    // Self time: each event's time less its direct children's.
    const stack: { e: TraceEvent; children: number }[] = [];
    const close = (until: number) => {
      while (stack.length && stack[stack.length - 1].e.ts + (stack[stack.length - 1].e.dur ?? 0) <= until) {
        const { e, children } = stack.pop()!;
        const args = e.args as { src_func?: string; src_file?: string; data?: { functionName?: string; url?: string } } | undefined;
        const detail = process.env.TRACE_DETAIL && args ? (args.src_func ? ` ${args.src_func}` : args.data?.functionName !== undefined ? ` ${args.data.functionName}@${(args.data.url ?? '').slice(-20)}` : '') : '';
        const name = e.name + detail;
        selfMain.set(name, (selfMain.get(name) ?? 0) + Math.max(0, cpu(e) - children) / n);
        if (stack.length) stack[stack.length - 1].children += cpu(e);
      }
    };
    for (const e of list) {
      close(e.ts);
      stack.push({ e, children: 0 });
    }
    close(Infinity);
  }
  return { busy, selfMain };
}

function report(unit: string, print: Split, render: Split) {
  process.stdout.write(`${unit}\n`);
  process.stdout.write('busy thread time, ms per document (top-level tasks)      print   render   diff\n');
  const keys = new Set([...print.busy.keys(), ...render.busy.keys()]);
  const rows = [...keys].map((k) => [k, print.busy.get(k) ?? 0, render.busy.get(k) ?? 0] as const).filter((r) => r[1] + r[2] > 0.05);
  rows.sort((a, b) => b[2] - a[2]);
  for (const [k, p, r] of rows) process.stdout.write(`  ${k.slice(0, 52).padEnd(52)} ${p.toFixed(2).padStart(7)} ${r.toFixed(2).padStart(8)} ${(r - p).toFixed(2).padStart(6)}\n`);
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(`  ${'all traced threads'.padEnd(52)} ${sum(print.busy).toFixed(2).padStart(7)} ${sum(render.busy).toFixed(2).padStart(8)} ${(sum(render.busy) - sum(print.busy)).toFixed(2).padStart(6)}\n\n`);
  process.stdout.write(`${LISTED_PROCESS} ${LISTED_THREAD}${EXTRA_THREAD ? ` + ${EXTRA_THREAD}` : ''}, self thread time by event, ms per document   print   render   diff\n`);
  const names = new Set([...print.selfMain.keys(), ...render.selfMain.keys()]);
  const selfRows = [...names].map((k) => [k, print.selfMain.get(k) ?? 0, render.selfMain.get(k) ?? 0] as const).filter((r) => Math.abs(r[2] - r[1]) > 0.03 || r[2] > 0.1);
  selfRows.sort((a, b) => b[2] - b[1] - (a[2] - a[1]) || b[2] - a[2]);
  for (const [k, p, r] of selfRows.slice(0, 40)) process.stdout.write(`  ${k.slice(0, 62).padEnd(62)} ${p.toFixed(2).padStart(7)} ${r.toFixed(2).padStart(8)} ${(r - p).toFixed(2).padStart(6)}\n`);
}

const { artifact } = await bundleTemplate(INVOICE);
const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, systemPaths: SYSTEM_BROWSER_PATHS });
// TRACE_FLAGS="<flag>|<flag>": Chromium started with these flags beyond Imprint's (a flag measured before it is taken).
const extraArgs = (process.env.TRACE_FLAGS ?? '').split('|').filter(Boolean);
const launched = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0, extraArgs });
try {
  const pages: TemplatePage[] = [];
  const open = async () => {
    for (let i = 0; i < concurrency; i++) {
      const context = await launched.browser.createBrowserContext();
      pages.push(await openTemplatePage(await context.newPage(), artifact, 30_000));
    }
  };
  if (process.argv.includes('--open')) {
    // The batch's start instead: the two template pages opened, then the first render on each.
    const session = await launched.browser.target().createCDPSession();
    const opened = split(
      await traced(session, async () => {
        await open();
        for (const page of pages) await renderOnTemplatePage(page, invoiceProps(0), {});
      }),
      1,
    );
    process.stdout.write(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n\n`);
    report('opening two template pages and a first render on each, ms (both columns the same)', opened, opened);
  } else {
    await open();
    let n = 0;
    const one = async (page: TemplatePage, pass: 'print' | 'render') => {
      if (pass === 'print') return void (await printPage(page.page, page.cdp, {}, plannedPageSetup({})));
      const rendered = await renderOnTemplatePage(page, invoiceProps(n++), {});
      if (rendered === 'dirty') throw new Error('dirty page');
    };
    const run = async (pass: 'print' | 'render') => {
      let left = docs;
      await Promise.all(
        pages.map(async (page) => {
          while (left-- > 0) await one(page, pass);
        }),
      );
    };
    for (let i = 0; i < 10; i++) for (const page of pages) await one(page, 'render'); // warm every path
    const session = await launched.browser.target().createCDPSession();
    const results = {} as Record<'print' | 'render', Split>;
    for (const pass of ['print', 'render'] as const) results[pass] = split(await traced(session, () => run(pass)), docs);
    process.stdout.write(`${docs} documents per pass, concurrency ${concurrency}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n\n`);
    report('ms per document', results.print, results.render);
  }
} finally {
  await launched.kill();
}
