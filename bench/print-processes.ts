/**
 * `npx tsx bench/print-processes.ts [docs]`: which of Chromium's processes a document's CPU goes
 * to, for the print alone (the floor) and for Imprint's render and print, on one warm template
 * page. Chromium starts a print compositor (a utility process, forked from its zygote) for every
 * print and lets it exit when the PDF is made: its CPU shows as the zygote's reaped children
 * (cutime + cstime), which is how it is counted here. Processes are sampled from /proc every
 * 2 ms, to count the compositors; a process that has exited is counted in its parent's reaped
 * time only. Not a test: it measures and prints.
 */
import fs from 'node:fs';
import os from 'node:os';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { findBrowser, SYSTEM_BROWSER_PATHS } from '../src/core/render/find-browser.js';
import { launchBrowser } from '../src/core/render/launch-browser.js';
import { plannedPageSetup, printPage } from '../src/core/render/print-pdf.js';
import { openTemplatePage, renderOnTemplatePage } from '../src/core/render/template-page.js';
import { INVOICE, invoiceProps } from './lib/invoice.js';

const docs = Number(process.argv[2] ?? 60);
const CLOCK_TICKS = 100; // USER_HZ

interface Seen {
  kind: string;
  parent: number;
  /** Own CPU, ms. */
  own: number;
  /** CPU of children it has reaped, ms. */
  reaped: number;
}

/** Chromium rewrites its command line into one space-separated title, hence \S+. */
function kindOf(cmdline: string): string {
  const type = /--type=(\S+)/.exec(cmdline)?.[1];
  if (!type) return 'browser';
  if (type === 'utility') return /--utility-sub-type=(\S+)/.exec(cmdline)?.[1] ?? 'utility';
  if (type === 'zygote') return cmdline.includes('--no-zygote-sandbox') ? 'zygote (unsandboxed)' : 'zygote';
  return type;
}

/** The browser's processes (other Chromiums on the machine are not counted), by pid. */
function scan(browserPid: number, into: Map<number, Seen>): Set<number> {
  const all = new Map<number, Seen>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (i: number) => (Number(fields[i]) * 1000) / CLOCK_TICKS;
      all.set(Number(entry), { kind: kindOf(cmdline), parent: Number(fields[1]), own: ms(11) + ms(12), reaped: ms(13) + ms(14) });
    } catch {
      // the process ended between the listing and the read: its parent's reaped time has it
    }
  }
  const alive = new Set<number>();
  for (const [pid, process] of all) {
    let up: number | undefined = pid;
    while (up !== undefined && up !== browserPid && up > 1) up = all.get(up)?.parent;
    if (up !== browserPid) continue;
    alive.add(pid);
    into.set(pid, process);
  }
  return alive;
}

const { artifact } = await bundleTemplate(INVOICE);
const executablePath = await findBrowser({ explicitPath: process.env.IMPRINT_BROWSER, systemPaths: SYSTEM_BROWSER_PATHS });
const launched = await launchBrowser({ executablePath, runningAsRoot: process.getuid?.() === 0 });
try {
  const context = await launched.browser.createBrowserContext();
  const page = await openTemplatePage(await context.newPage(), artifact, 30_000);
  await renderOnTemplatePage(page, invoiceProps(0), {});
  for (const pass of ['print', 'render + print'] as const) {
    const before = new Map<number, Seen>();
    const browserPid = launched.pid!;
    scan(browserPid, before);
    const seen = new Map(before);
    const timer = setInterval(() => scan(browserPid, seen), 2);
    const started = performance.now();
    for (let i = 0; i < docs; i++) {
      if (pass === 'print') await printPage(page.page, page.cdp, {}, plannedPageSetup({}));
      else if ((await renderOnTemplatePage(page, invoiceProps(i), {})) === 'dirty') throw new Error('dirty page');
    }
    const wall = performance.now() - started;
    clearInterval(timer);
    const alive = scan(browserPid, seen);
    const byKind = new Map<string, { own: number; reaped: number }>();
    let exited = 0;
    for (const [pid, now] of seen) {
      // A process that has exited is in its parent's reaped time, all of it.
      if (!alive.has(pid)) {
        exited++;
        continue;
      }
      const was = before.get(pid);
      const entry = byKind.get(now.kind) ?? { own: 0, reaped: 0 };
      entry.own += now.own - (was?.own ?? 0);
      entry.reaped += now.reaped - (was?.reaped ?? 0);
      byKind.set(now.kind, entry);
    }
    let total = 0;
    process.stdout.write(`\n${pass}: ${docs} documents on one page, ${(wall / docs).toFixed(1)} ms each, ${exited} processes started and exited, load average ${os.loadavg()[0].toFixed(2)}\n`);
    process.stdout.write(`  ${'process'.padEnd(36)} CPU ms/doc: own + reaped children\n`);
    for (const [kind, entry] of [...byKind].sort((a, b) => b[1].own + b[1].reaped - (a[1].own + a[1].reaped))) {
      total += entry.own + entry.reaped;
      if (entry.own + entry.reaped > 0) process.stdout.write(`  ${kind.padEnd(36)} ${(entry.own / docs).toFixed(2)} + ${(entry.reaped / docs).toFixed(2)}\n`);
    }
    process.stdout.write(`  ${'all'.padEnd(36)} ${(total / docs).toFixed(2)}\n`);
  }
} finally {
  await launched.kill();
}
