/**
 * Every command of the CLI, once, on the Node running the tests (CI runs this file on Node 24
 * and again on Node 22, the lowest supported): its `--help`, and a minimal real run, offline,
 * in temporary data folders. The commands are read from the CLI's own help (`imprint --help`,
 * then each command's, down to the subcommands), so a command added without a case here fails
 * the first test, and a case whose command is gone fails its own.
 *
 * Cheap on purpose (the suite runs on 2 cores): one published template serves the commands
 * that take an id; one `imprint serve` on a data folder the operator commands prepared serves
 * the remote ones (login, whoami, jobs), and it is stopped by SIGTERM at the end. Every child
 * has a deadline: runCli's timeoutMs, the serve helper's start deadline, and `withDeadline`
 * for `imprint dev` and the serve's stop. The cases run in order; a later one uses what an
 * earlier one made (the published invoice, the team's key, the service).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { startBrowserMirror, type BrowserMirror } from '../helpers/browser-mirror.js';
import { BIN, EXAMPLES, INPUTS, runCli, tempDir, type CliOptions, type CliResult } from '../helpers/cli.js';
import { onExit } from '../helpers/exit-hooks.js';
import { pdfText } from '../helpers/pdf.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const HELP_MS = 30_000;
const RUN_MS = 120_000;

const invoice = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const invoiceProps = path.join(EXAMPLES, 'invoice', 'props.json');
const invoiceData = JSON.parse(fs.readFileSync(invoiceProps, 'utf8'));
const work = tempDir('imprint-smoke-');
/** The embedded user's data folder, and the one `imprint serve` serves (the operator's). */
const userData = tempDir('imprint-smoke-user-');
const serviceData = tempDir('imprint-smoke-serve-');

const cli = (args: string[], options: CliOptions = {}) => runCli(args, { timeoutMs: RUN_MS, ...options, env: { IMPRINT_DATA_DIR: userData, ...options.env } });
const operator = (args: string[]) => runCli(args, { timeoutMs: RUN_MS, env: { IMPRINT_DATA_DIR: serviceData } });
/** What a command said, both streams (notes go to stderr, answers to stdout). */
const said = (result: CliResult) => `${result.stdout.toString()}\n${result.stderr}`;

/** Its stdout, once it has exited 0. */
function ok(result: CliResult): string {
  assert.equal(result.code, 0, result.describe());
  return result.stdout.toString();
}

/** Both its streams, once it has exited 0. */
function okSaid(result: CliResult): string {
  ok(result);
  return said(result);
}

/** Resolves with `promise`, or rejects after `ms` (having called `onLate`, which kills what is late). */
function withDeadline<T>(promise: Promise<T>, ms: number, what: string, onLate: () => void): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        onLate();
        reject(new Error(`${what} did not finish within ${ms} ms (killed)`));
      }, ms);
    }),
  ]);
}

// ---------------------------------------------------------------------------------------------
// The commands, from the CLI itself.

/** The names in a help text's "Commands:" section (the first of each `name|alias`), `help` left out. */
function subcommandsIn(help: string): string[] {
  const lines = help.split('\n');
  const start = lines.indexOf('Commands:');
  if (start === -1) return [];
  const end = lines.indexOf('', start);
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .map((line) => /^ {2}([a-z][\w-]*)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
}

/** `imprint <path> --help` of every command and command group, by path ('' is imprint's own). */
const helps = new Map<string, CliResult>();
/** The commands that run something (no subcommands of their own), e.g. 'render', 'team create'. */
const leaves: string[] = [];
async function discover(route: string[]): Promise<void> {
  const help = await runCli([...route, '--help'], { timeoutMs: HELP_MS });
  helps.set(route.join(' '), help);
  const subcommands = subcommandsIn(help.stdout.toString());
  if (route.length > 0 && subcommands.length === 0) leaves.push(route.join(' '));
  await inPairs(subcommands.map((name) => () => discover([...route, name])));
}
/** Two at a time: as many as the machine has cores. */
async function inPairs(jobs: (() => Promise<void>)[]): Promise<void> {
  for (let i = 0; i < jobs.length; i += 2) await Promise.all(jobs.slice(i, i + 2).map((job) => job()));
}
await discover([]);

// ---------------------------------------------------------------------------------------------
// State the cases share, in the order they make it.

let service: ServeProcess | undefined;
let apiKey = '';
let jobId = '';
/** The config folder `imprint login` wrote to (the other cases keep runCli's, logged out). */
const loginConfig = { IMPRINT_CONFIG_DIR: tempDir('imprint-smoke-config-') };
const remoteData = tempDir('imprint-smoke-remote-');
const devConfig = tempDir('imprint-smoke-config-');
const remoteEnv = () => ({ IMPRINT_API_URL: service!.url, IMPRINT_API_KEY: apiKey, IMPRINT_DATA_DIR: remoteData });
const project = path.join(work, 'project');
/** `imprint browser install`'s loopback mirror, and a Puppeteer cache of its own (the other cases keep the machine's browser). */
let browserMirror: BrowserMirror | undefined;
const browserEnv = { PUPPETEER_CACHE_DIR: tempDir('imprint-smoke-puppeteer-'), IMPRINT_BROWSER: undefined, PUPPETEER_EXECUTABLE_PATH: undefined };
let installedBrowser = '';
const jobRows = [1, 2].map((n) => ({ ...invoiceData, invoiceNo: `INV-SMOKE-${n}` }));

/** `imprint dev` on the project until its studio page answers, then SIGTERM. */
async function devServes(): Promise<void> {
  const child = spawn(process.execPath, [BIN, 'dev', project, '--port', '0'], {
    cwd: INPUTS,
    // runCli's isolation: no login or mode of the developer's, no background renderer.
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0', IMPRINT_API_URL: undefined, IMPRINT_API_KEY: undefined, IMPRINT_MODE: undefined, IMPRINT_CONFIG_DIR: devConfig, IMPRINT_DATA_DIR: userData, IMPRINT_RENDERER: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Stopped with the test process too, should it be ended while the studio runs.
  const forget = onExit(() => child.kill('SIGTERM'));
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(forget);
  const url = await withDeadline(
    new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1];
        if (found) resolve(found);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exited.then((code) => reject(new Error(`imprint dev exited (${code}) before serving:\n${output}`)));
    }),
    RUN_MS,
    'imprint dev start',
    () => child.kill('SIGKILL'),
  );
  try {
    const page = await fetch(url, { signal: AbortSignal.timeout(RUN_MS) });
    assert.equal(page.status, 200, `GET ${url}:\n${output}`);
    assert.match(await page.text(), /<html/i);
  } finally {
    child.kill('SIGTERM');
    await withDeadline(exited, 30_000, 'imprint dev stop', () => child.kill('SIGKILL'));
  }
}

/**
 * The cases, by command, in the order they run: each gets the command's --help checked first.
 * A command the CLI lists without a case here fails 'every command has a case'.
 */
const CASES: [string, () => Promise<void>][] = [
  ['init', async () => {
    const init = await cli(['init', project]);
    ok(init);
    assert.match(said(init), /Created .*templates\/Invoice\.tsx/);
    for (const file of ['package.json', 'templates/Invoice.tsx', 'templates/Invoice.props.json']) assert.ok(fs.existsSync(path.join(project, file)), `init wrote ${file}`);
  }],
  ['check', async () => {
    assert.match(okSaid(await cli(['check'], { cwd: project })), /1 template checked: 1 passed, 0 failed/);
  }],
  ['dev', devServes],
  ['generate', async () => {
    const html = path.join(work, 'page.html');
    fs.writeFileSync(html, '<h1>Smoke page</h1><p>generated offline</p>');
    const pdf = path.join(work, 'page.pdf');
    ok(await cli(['generate', '--html', html, '-o', pdf]));
    assert.match(pdfText(pdf), /Smoke page[\s\S]*generated offline/);
  }],
  ['publish', async () => {
    assert.match(okSaid(await cli(['publish', invoice])), /Published invoice version 1/);
  }],
  ['list', async () => {
    assert.deepEqual(JSON.parse(ok(await cli(['list', '--json']))).map((t: { id: string }) => t.id), ['invoice']);
  }],
  ['render', async () => {
    const local = path.join(work, 'local.pdf');
    ok(await cli(['render', invoice, '--props', invoiceProps, '-o', local]));
    assert.match(pdfText(local), new RegExp(invoiceData.invoiceNo), 'a local template file renders');
    const byId = path.join(work, 'by-id.pdf');
    ok(await cli(['render', 'invoice', '--props', '-', '-o', byId], { stdin: JSON.stringify({ ...invoiceData, invoiceNo: 'INV-SMOKE-ID' }) }));
    assert.match(pdfText(byId), /INV-SMOKE-ID/, 'the published template renders by its id');
  }],
  ['merge', async () => {
    const merged = path.join(work, 'merged.pdf');
    ok(await cli(['merge', path.join(work, 'page.pdf'), path.join(work, 'local.pdf'), '-o', merged]));
    assert.match(pdfText(merged), new RegExp(`Smoke page[\\s\\S]*${invoiceData.invoiceNo}`), 'the generated page, then the invoice');
  }],
  ['verify', async () => {
    const unsigned = await cli(['verify', path.join(work, 'page.pdf')]);
    assert.equal(unsigned.code, 1, unsigned.describe());
    assert.match(said(unsigned), /is not signed/);
  }],
  ['cache info', async () => {
    // The local template rendered above was built once and kept.
    assert.match(okSaid(await cli(['cache', 'info'])), /template-cache: [1-9]\d* template builds?/);
  }],
  ['cache clear', async () => {
    assert.match(okSaid(await cli(['cache', 'clear'])), /Cleared .*template-cache \([1-9]\d* template builds?/);
    assert.match(okSaid(await cli(['cache', 'info'])), /template-cache: 0 template builds/);
  }],
  ['schema', async () => {
    const schema = JSON.parse(ok(await cli(['schema', 'invoice'])));
    assert.equal(schema.type, 'object');
    assert.ok(schema.properties?.invoiceNo, JSON.stringify(schema).slice(0, 500));
  }],
  ['einvoice', async () => {
    const xml = ok(await cli(['einvoice', 'invoice', '--props', invoiceProps]));
    assert.match(xml, /<rsm:CrossIndustryInvoice/);
    assert.ok(xml.includes(`<ram:ID>${invoiceData.invoiceNo}</ram:ID>`), xml.slice(0, 2000));
  }],
  ['versions', async () => {
    assert.deepEqual(JSON.parse(ok(await cli(['versions', 'invoice', '--json']))).map((v: { version: number }) => v.version), [1]);
  }],
  ['rollback', async () => {
    assert.match(okSaid(await cli(['rollback', 'invoice', '1'])), /version 2 \(the content of version 1\)/);
  }],
  ['renderer start', async () => {
    assert.match(okSaid(await cli(['renderer', 'start'])), /Renderer running: pid \d+/);
  }],
  ['renderer status', async () => {
    assert.equal(JSON.parse(ok(await cli(['renderer', 'status', '--json']))).running, true);
  }],
  ['renderer stop', async () => {
    assert.match(okSaid(await cli(['renderer', 'stop'])), /Stopped the renderer/);
    assert.equal(JSON.parse(ok(await cli(['renderer', 'status', '--json']))).running, false);
  }],
  ['doctor', async () => {
    const report = JSON.parse(ok(await cli(['doctor', '--json'])));
    assert.equal(report.ok, true, JSON.stringify(report, null, 2));
    const node = report.checks.find((check: { id: string }) => check.id === 'node');
    assert.ok(node?.detail.includes(process.versions.node), `doctor names the Node it runs on (${process.versions.node}): ${JSON.stringify(node)}`);
  }],
  ['browser install', async () => {
    browserMirror = await startBrowserMirror();
    installedBrowser = ok(await cli(['browser', 'install', '--base-url', browserMirror.base('ok')], { env: browserEnv })).trim();
    assert.ok(installedBrowser.startsWith(browserEnv.PUPPETEER_CACHE_DIR), installedBrowser);
    fs.accessSync(installedBrowser, fs.constants.X_OK);
  }],
  ['browser path', async () => {
    assert.equal(ok(await cli(['browser', 'path'], { env: browserEnv })).trim(), installedBrowser);
  }],
  ['browser list', async () => {
    const listed = JSON.parse(ok(await cli(['browser', 'list', '--json'], { env: browserEnv })));
    assert.deepEqual([listed.used, listed.browsers.map((b: { executablePath: string }) => b.executablePath)], [installedBrowser, [installedBrowser]]);
  }],
  // The operator's commands, on the data folder `imprint serve` then serves.
  ['team create', async () => {
    assert.match(okSaid(await operator(['team', 'create', 'acme'])), /Created team acme/);
  }],
  ['team set-limit', async () => {
    ok(await operator(['team', 'set-limit', 'acme', '50']));
  }],
  ['team list', async () => {
    assert.match(ok(await operator(['team', 'list'])), /^acme\t50\t0\t/m);
  }],
  ['team webhook-secret', async () => {
    assert.match(ok(await operator(['team', 'webhook-secret', 'acme'])), /^whsec_\S+$/m);
  }],
  ['team signing-key', async () => {
    assert.match(okSaid(await operator(['team', 'signing-key', 'acme'])), /Team acme has no signing key/);
  }],
  ['key create', async () => {
    apiKey = ok(await operator(['key', 'create', '--team', 'acme'])).trim();
    assert.match(apiKey, /^imp_\S+$/);
  }],
  ['key revoke', async () => {
    ok(await operator(['key', 'create', '--team', 'acme']));
    const [, spare] = JSON.parse(ok(await operator(['key', 'list', '--team', 'acme', '--json'])));
    ok(await operator(['key', 'revoke', spare.id]));
  }],
  ['key list', async () => {
    const keys = JSON.parse(ok(await operator(['key', 'list', '--team', 'acme', '--json'])));
    assert.deepEqual(keys.map((key: { revokedAt: string | null }) => key.revokedAt === null), [true, false], JSON.stringify(keys));
  }],
  ['serve', async () => {
    service = await startServeProcess({ dataDir: serviceData });
    const health = await fetch(new URL('/healthz', service.url), { signal: AbortSignal.timeout(30_000) });
    assert.equal(health.status, 200, service.output());
    // Stopped by SIGTERM in the last test, once the remote commands below have used it.
  }],
  ['login', async () => {
    ok(await cli(['login', '--api-url', service!.url, '--api-key', apiKey], { env: loginConfig }));
    assert.match(ok(await cli(['whoami'], { env: loginConfig })), /Team:\s+acme/, 'later commands use the stored login');
  }],
  ['whoami', async () => {
    assert.match(ok(await cli(['whoami'], { env: remoteEnv() })), /Team:\s+acme[\s\S]*of 50 generations/);
  }],
  ['logout', async () => {
    ok(await cli(['logout'], { env: loginConfig }));
    assert.doesNotMatch(said(await cli(['whoami'], { env: loginConfig })), /Team:\s+acme/, 'logged out');
  }],
  ['jobs list', async () => {
    const env = remoteEnv();
    ok(await cli(['publish', invoice], { env }));
    const rows = path.join(work, 'rows.jsonl');
    fs.writeFileSync(rows, jobRows.map((row) => JSON.stringify(row)).join('\n') + '\n');
    jobId = ok(await cli(['render', 'invoice', '--batch', rows, '--out-dir', path.join(work, 'job'), '--name', '{{invoiceNo}}.pdf', '--detach'], { env })).trim();
    const listed = JSON.parse(ok(await cli(['jobs', 'list', '--json'], { env })));
    assert.ok(JSON.stringify(listed).includes(jobId), `job ${jobId} is listed: ${JSON.stringify(listed)}`);
  }],
  ['jobs wait', async () => {
    ok(await cli(['jobs', 'wait', jobId, '--out-dir', path.join(work, 'job')], { env: remoteEnv() }));
    for (const row of jobRows) assert.match(pdfText(path.join(work, 'job', `${row.invoiceNo}.pdf`)), new RegExp(row.invoiceNo));
  }],
  ['jobs show', async () => {
    const job = JSON.parse(ok(await cli(['jobs', 'show', jobId, '--json'], { env: remoteEnv() })));
    assert.deepEqual([job.status, job.done, job.failed], ['completed', 2, 0]);
  }],
  ['jobs archive', async () => {
    const zip = path.join(work, 'job.zip');
    ok(await cli(['jobs', 'archive', jobId, '-o', zip], { env: remoteEnv() }));
    assert.equal(fs.readFileSync(zip).subarray(0, 2).toString(), 'PK');
  }],
  ['jobs cancel', async () => {
    // A finished job: nothing left to cancel, its rows stay done.
    const job = JSON.parse(ok(await cli(['jobs', 'cancel', jobId, '--json'], { env: remoteEnv() })));
    assert.deepEqual([job.status, job.done, job.cancelled], ['completed', 2, 0]);
  }],
];

after(async () => {
  // Whatever a failed case left running.
  await cli(['renderer', 'stop']);
  if (service && service.child.exitCode === null) await service.kill();
  await browserMirror?.close();
  for (const dir of [work, userData, serviceData, remoteData, devConfig, loginConfig.IMPRINT_CONFIG_DIR, browserEnv.PUPPETEER_CACHE_DIR]) fs.rmSync(dir, { recursive: true, force: true });
});

test('every command the CLI lists has a case here, and every case a command', () => {
  const top = helps.get('');
  assert.ok(top && top.code === 0, top?.describe());
  assert.ok(leaves.length >= 20, `commands read from the help: ${leaves.join(', ')}`);
  const cased = new Set(CASES.map(([name]) => name));
  assert.deepEqual(leaves.filter((name) => !cased.has(name)), [], 'commands without a smoke case (add one to CASES)');
  assert.deepEqual([...cased].filter((name) => !leaves.includes(name)), [], 'cases of commands the CLI no longer lists');
});

test('every command group answers --help with its usage', () => {
  for (const [route, help] of helps) {
    assert.equal(help.code, 0, help.describe());
    assert.match(help.stdout.toString(), new RegExp(`^Usage: imprint${route ? ` ${route}` : ''}(\\|\\w+)? `), help.describe());
  }
});

for (const [name, run] of CASES) {
  test(`imprint ${name}`, async () => {
    const help = helps.get(name);
    assert.ok(help, `the CLI lists no command "${name}"`);
    assert.equal(help.code, 0, help.describe());
    assert.match(help.stdout.toString(), new RegExp(`^Usage: imprint ${name}(\\|\\w+)? `), help.describe());
    await run();
  });
}

test('imprint serve stops cleanly on SIGTERM', async () => {
  assert.ok(service, 'the serve case started it');
  const code = await withDeadline(service.stop(), 60_000, 'imprint serve stop', () => void service!.kill());
  assert.equal(code, 0, service.output());
});
