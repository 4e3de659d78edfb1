/**
 * `npx tsx bench/big-document.ts [--pages 200,2000] [--paths cli,renderer,serve] [--layout table|blocks]`
 * (issue 40):
 * a generated table report (bench/fixtures/big-report: N A4 pages, a 200 KB logo on every page,
 * "Page N of M" footers) rendered through the CLI in-process (`--no-renderer`), through the warm
 * renderer, and through `imprint serve`, each a process of its own started for the run. For each:
 * wall time (spawn to exit, or request to last byte), the peak resident memory of the Node
 * processes doing the work (VmHWM of the CLI plus the renderer's, or of the service), Chromium's
 * peak proportional set size (the sum of Pss over its processes, sampled every 200 ms), the
 * growth of both from the smallest to the largest variant, and the PDF checked: pages, bytes,
 * how many images `pdfimages -list` lists (the logo should be there once), the first and last
 * footer. `--layout blocks` prints the rows as blocks instead of one table. Not a test: it measures and prints. Needs a built CLI (`npm run build`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pidtree from 'pidtree';
import { encodeArtifact } from '../src/core/artifact.js';
import { bundleTemplate } from '../src/core/bundle/bundle-template.js';
import { openStore } from '../src/core/store/index.js';
import { LOCAL_TEAM } from '../src/backend/embedded.js';
import { bigReportProject, ROWS_PER_PAGE } from './lib/big-report.js';
import { BIN } from './lib/invoice.js';

const SAMPLE_MS = 200;
const DEADLINE = '10m';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '200,2000' }, paths: { type: 'string', default: 'cli,renderer,serve' }, layout: { type: 'string', default: 'table' } } });
const layout = values.layout;
const variants = values.pages.split(',').map(Number);
const paths = values.paths.split(',');

function statusKiB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // gone between listing and reading
  }
}

function pssKiB(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

const isChromium = (pid: number) => {
  try {
    return /chrom/i.test(fs.readFileSync(`/proc/${pid}/comm`, 'utf8'));
  } catch {
    return false;
  }
};

/**
 * Samples the Node processes `nodePids()` names (their VmHWM, the kernel's own peak, kept at
 * its highest seen, since a process's figure is gone once it exits) and the Chromium processes
 * under them (Pss summed per sample; the peak sample kept) until stopped.
 */
function sampler(nodePids: () => number[]) {
  const hwm = new Map<number, number>();
  let chromiumPeakKiB = 0;
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const nodes = nodePids();
      let chromium = 0;
      for (const pid of nodes) {
        hwm.set(pid, Math.max(hwm.get(pid) ?? 0, statusKiB(pid, 'VmHWM')));
        const children = await pidtree(pid).catch(() => [] as number[]);
        for (const child of children) if (isChromium(child)) chromium += pssKiB(child);
      }
      chromiumPeakKiB = Math.max(chromiumPeakKiB, chromium);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return { nodeMiB: [...hwm.values()].reduce((a, b) => a + b, 0) / 1024, chromiumMiB: chromiumPeakKiB / 1024 };
    },
  };
}

function waitExit(child: ChildProcess, what: string): Promise<void> {
  let said = '';
  child.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${what} exited with ${code}: ${said.trim().slice(-600)}`))));
  });
}

function pdfFacts(file: string, pages: number) {
  const info = spawnSync('pdfinfo', [file], { encoding: 'utf8' }).stdout;
  const count = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
  // One line per image drawn on a page; the object number (column 11) tells how many the file holds.
  const drawn = spawnSync('pdfimages', ['-list', file], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout.split('\n').slice(2).filter((line) => line.trim());
  const images = new Set(drawn.map((line) => line.trim().split(/\s+/)[10])).size;
  const footer = (page: number) => /Page \d+ of \d+/.exec(spawnSync('pdftotext', ['-f', String(page), '-l', String(page), '-layout', file, '-'], { encoding: 'utf8' }).stdout)?.[0] ?? '(none)';
  return { pages: count, expected: pages, mib: fs.statSync(file).size / 2 ** 20, images, first: footer(1), last: count ? footer(count) : '(none)' };
}

interface Row {
  path: string;
  pages: number;
  seconds?: number;
  nodeMiB?: number;
  chromiumMiB?: number;
  facts?: ReturnType<typeof pdfFacts>;
  error?: string;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-big-document-'));
const project = path.join(work, 'project');
const dataDir = path.join(work, 'data');
const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', IMPRINT_DATA_DIR: dataDir, IMPRINT_RUNTIME_DIR: path.join(work, 'run'), IMPRINT_TIMEOUT: DEADLINE, IMPRINT_RENDERER_IDLE: '10m' };
const propsFile = (pages: number) => {
  const file = path.join(work, `props-${pages}.json`);
  fs.writeFileSync(file, JSON.stringify({ rows: pages * ROWS_PER_PAGE, layout }));
  return file;
};
const cli = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => spawn(process.execPath, [BIN, ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe'] });

async function timedCli(args: string[], extraEnv: NodeJS.ProcessEnv, alsoNode: () => number[]) {
  const started = performance.now();
  const child = cli(args, extraEnv);
  const sampling = sampler(() => [child.pid!, ...alsoNode()]);
  const exited = waitExit(child, `imprint ${args[0]}`);
  // Sampling stops however the call ends; a failure is reported after it has.
  const outcome = await exited.then(() => undefined, (error: Error) => error);
  const memory = await sampling.stop();
  if (outcome) throw outcome;
  return { seconds: (performance.now() - started) / 1000, ...memory };
}

const rendererPid = (): number | undefined => {
  const status = spawnSync(process.execPath, [BIN, 'renderer', 'status', '--json'], { env: { ...env, IMPRINT_RENDERER: 'on' }, encoding: 'utf8' });
  try {
    return JSON.parse(status.stdout).pid;
  } catch {
    return undefined;
  }
};
const stopRenderers = () => spawnSync(process.execPath, [BIN, 'renderer', 'stop', '--all'], { env, encoding: 'utf8' });

async function viaCli(pages: number, out: string) {
  return timedCli(['render', 'bigreport', '--embedded', '--no-renderer', '--props', propsFile(pages), '-o', out], {}, () => []);
}

/** A fresh renderer, warmed with a one-page render of the same template, then the measured call. */
async function viaRenderer(pages: number, out: string) {
  stopRenderers();
  const rendererEnv = { IMPRINT_RENDERER: 'on' };
  await waitExit(cli(['render', 'bigreport', '--embedded', '--props', propsFile(1), '-o', out], rendererEnv), 'the warm-up render');
  const pid = rendererPid();
  if (!pid) throw new Error('no renderer running after the warm-up render');
  try {
    return await timedCli(['render', 'bigreport', '--embedded', '--props', propsFile(pages), '-o', out], rendererEnv, () => [pid]);
  } finally {
    stopRenderers();
  }
}

async function viaServe(pages: number, out: string, key: string) {
  const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--port', '0', '--log-level', 'warn', '--render-timeout', DEADLINE, '--reservation-lease', '20m', '--max-pages', '100000', '--max-pdf-size', '4GB'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let said = '';
      const timer = setTimeout(() => reject(new Error(`imprint serve did not listen within 60 s:\n${said}`)), 60_000);
      child.stderr!.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        const found = /listening on (http:\/\/\S+)/.exec(said)?.[1];
        if (found) clearTimeout(timer), resolve(found);
      });
      child.once('exit', (code) => reject(new Error(`imprint serve exited with ${code}:\n${said}`)));
    });
    const render = async (rows: number, file: string) => {
      const response = await fetch(`${url}/api/documents/bigreport`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ props: { rows, layout } }) });
      if (response.status !== 200) throw new Error(`the service answered ${response.status}: ${await response.text()}`);
      const sink = fs.createWriteStream(file);
      for await (const chunk of response.body!) sink.write(chunk);
      await new Promise((resolve) => sink.end(resolve));
    };
    await render(ROWS_PER_PAGE, out); // warm: the template's page loaded
    const sampling = sampler(() => [child.pid!]);
    const started = performance.now();
    const outcome = await render(pages * ROWS_PER_PAGE, out).then(() => undefined, (error: Error) => error);
    const seconds = (performance.now() - started) / 1000;
    const memory = await sampling.stop();
    if (outcome) throw outcome;
    return { seconds, ...memory };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined ? '-' : n.toFixed(digits));

try {
  const { artifact } = await bundleTemplate(bigReportProject(project));
  const store = openStore({ dataDir });
  // The team the embedded CLI renders for, so the CLI, the renderer and the service print the same published version.
  const team = await store.ensureTeam(LOCAL_TEAM);
  const { key } = await store.createApiKey(LOCAL_TEAM);
  await store.publishTemplate(team.id, 'bigreport', encodeArtifact(artifact), { sourceName: artifact.sourceName });
  await store.close();
  console.log(`machine: ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; layout ${layout}; logo ${(fs.statSync(path.join(project, 'logo.png')).size / 1024).toFixed(0)} KiB; ${ROWS_PER_PAGE} rows a page`);
  const rows: Row[] = [];
  for (const which of paths) {
    for (const pages of variants) {
      const out = path.join(work, `${which}-${pages}.pdf`);
      const row: Row = { path: which, pages };
      try {
        const measured = which === 'cli' ? await viaCli(pages, out) : which === 'renderer' ? await viaRenderer(pages, out) : await viaServe(pages, out, key);
        Object.assign(row, measured, { facts: pdfFacts(out, pages) });
      } catch (error) {
        row.error = (error as Error).message.split('\n')[0].slice(0, 200);
      }
      rows.push(row);
      const f = row.facts;
      console.log(
        row.error
          ? `${which.padEnd(8)} ${String(pages).padStart(5)} pages  FAILED: ${row.error}`
          : `${which.padEnd(8)} ${String(pages).padStart(5)} pages  ${fmt(row.seconds, 1).padStart(6)} s  Node ${fmt(row.nodeMiB).padStart(5)} MiB  Chromium PSS ${fmt(row.chromiumMiB).padStart(5)} MiB  ` +
              `PDF ${f!.pages} pages ${fmt(f!.mib, 1)} MiB, ${f!.images} image object(s), footers "${f!.first}" .. "${f!.last}"`,
      );
    }
    const measured = rows.filter((row) => row.path === which && !row.error);
    if (measured.length >= 2) {
      const [small, large] = [measured[0], measured[measured.length - 1]];
      console.log(`${which.padEnd(8)} growth ${small.pages} -> ${large.pages} pages: Node +${fmt(large.nodeMiB! - small.nodeMiB!)} MiB, Chromium +${fmt(large.chromiumMiB! - small.chromiumMiB!)} MiB, time x${fmt(large.seconds! / small.seconds!, 1)}`);
    }
  }
  if (spawnSync('weasyprint', ['--version']).status === 0) console.log('weasyprint is installed: reference row not yet written');
  else console.log('weasyprint: not installed (Debian package weasyprint), no reference row');
} finally {
  stopRenderers();
  fs.rmSync(work, { recursive: true, force: true });
}
