/**
 * The warm renderer: a background process that keeps the embedded engine (its store, its
 * browser pool with warm pages) open between CLI calls and serves them over a Unix socket.
 * It runs the CLI's own engine with the CLI's own settings, so what it answers is what the
 * CLI would have made in its own process. The CLI writes the files, except for a nail call
 * (nail-serve.ts: a render sent whole by bin/imprint.js), whose PDF the renderer writes as the
 * CLI would, once it has checked the call is the CLI's common form for this renderer.
 *
 * Started detached by the first CLI that needs it (client/renderer-client.ts), it exits by itself
 * after its idle time, on `imprint renderer stop`, or on SIGTERM/SIGINT.
 */
import { defaultSpoolPolicy } from '../../../core/spool/spool-policy.js';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { EgressDenial } from '../../../core/net/egress-proxy.js';
import { createEmbeddedBackend } from '../../../backend/embedded.js';
import { renderTemplateFile } from '../../../backend/template-file.js';
import { createTemplateCache } from '../../../backend/template-cache/template-cache.js';
import { templateCacheBytes } from '../../../backend/template-cache/cache-settings.js';
import { CLI_TIMEOUT_ADVICE } from '../../../backend/render-timeout.js';
import type { RenderOptions } from '../../../core/render-request.js';
import type { LocalEgress } from '../../../backend/local-egress.js';
import type { LaunchAhead } from '../../launch-ahead.js';
import { announce, READY_LINE } from '../renderer-announce.js';
import { releaseLock } from '../renderer-lock.js';
import type { RendererSpec } from '../renderer-target.js';
import { deliverNail, prepareNail } from './nail-serve.js';
import { describeNailTiming } from './nail-timing.js';
import { timeRender, type RenderMarks } from '../../../core/render/render-timing.js';
import { LAST_RENDERER_FILE } from '../runtime-dir.js';
import { readMessages, toWireError, toWireResult, writeMessage, type RendererStatus, type WireAnswer, type WireRequest } from '../wire.js';

const log = (text: string) => process.stderr.write(`${new Date().toISOString()} ${text}\n`);

/**
 * Runs the renderer; the caller (renderer-main.ts) holds the lock and has started Chromium
 * through `launchAhead`, behind `egress`'s template proxy.
 */
export async function runRenderer(spec: RendererSpec, { egress, launchAhead }: { egress: LocalEgress; launchAhead: LaunchAhead }): Promise<void> {
  const { settings } = spec;
  egress.allowLocal(settings.allowLocal);
  const generating = new Set<net.Socket>();
  const connections = new Set<net.Socket>();
  egress.onPageDenied((denial: EgressDenial) => {
    for (const socket of generating) writeMessage(socket, { type: 'denied', denial });
  });
  const backend = createEmbeddedBackend({
    dataDir: settings.dataDir,
    renderTimeoutMs: settings.renderTimeoutMs,
    timeoutAdvice: CLI_TIMEOUT_ADVICE,
    browserSearch: settings.browser.search,
    browserEnv: settings.browser.env,
    runningAsRoot: settings.browser.runningAsRoot,
    egress,
    launch: launchAhead.launch,
    // The threshold its settings name (the client's IMPRINT_SPOOL_FROM), in this process's temp folder (the client's TMPDIR: the browser's environment is in the settings too).
    spool: defaultSpoolPolicy(settings.spoolFromBytes),
  });
  // Chromium boots while the first CLI sends its request.
  backend.localBrowser.prewarm();
  // Template files' bundles and schemas: checked by a stat of their inputs, kept in memory while hot (the same artifact, so its warm pages are reused).
  const templateCache = createTemplateCache({ dataDir: settings.dataDir, maxBytes: templateCacheBytes(process.env) });
  /** A published template by id, or a template file from the cache. */
  const renderDocument = (call: { ref: string; file?: string; props: unknown; options: RenderOptions; version?: number }, gone: AbortSignal) =>
    call.file === undefined
      ? backend.render(call.ref, call.props, call.options, call.version, gone)
      : renderTemplateFile(backend, templateCache, call.file, call.props, call.options, undefined, call.ref);

  const startedAt = new Date().toISOString();
  let served = 0;
  let nailed = 0;
  let inFlight = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | undefined;
  const status = (): RendererStatus => ({
    key: spec.key,
    pid: process.pid,
    startedAt,
    idleMs: spec.idleMs,
    dataDir: settings.dataDir,
    served,
    nailed,
    active: inFlight,
    templateFiles: templateCache.stats(),
  });

  const armIdle = () => {
    clearTimeout(idleTimer);
    if (inFlight === 0 && !stopping) idleTimer = setTimeout(() => void stop('idle'), spec.idleMs);
  };

  /** `gone`: aborted when the CLI that asked goes away (Ctrl-C): its page is closed, its slot freed. */
  async function answer(socket: net.Socket, request: WireRequest, gone: AbortSignal): Promise<WireAnswer> {
    switch (request.type) {
      case 'hello':
        return { type: 'hello', ...status() };
      case 'stop':
        void stop('asked to stop');
        return { type: 'stopping' };
      case 'render': {
        const rendered = await renderDocument(request, gone);
        return { type: 'result', result: toWireResult(rendered.result), usedPreviewProps: rendered.usedPreviewProps };
      }
      case 'nail': {
        const received = performance.now();
        const call = prepareNail(request, spec);
        if ('declined' in call) {
          // Rare once a loop is warm (the thin path that follows makes this renderer the one asked first): said in the log, for whoever wonders why calls are slower.
          log(`nail call declined: ${call.declined}`);
          return { type: 'declined', why: call.declined };
        }
        served++;
        nailed++;
        const checked = performance.now();
        const marks: RenderMarks = {};
        const render = () => renderDocument(call, gone);
        let rendered;
        try {
          rendered = await (spec.timing ? timeRender(marks, render) : render());
        } catch (error) {
          // The document's own failure (bad props, a template that throws): the client prints it.
          if (gone.aborted) throw error;
          return { type: 'nailed', error: toWireError(error) };
        }
        const renderedAt = performance.now();
        const delivered = await deliverNail(call, rendered, gone);
        if (spec.timing) log(describeNailTiming({ received, checked, marks, rendered: renderedAt, delivered: performance.now() }));
        return delivered;
      }
      case 'generate': {
        generating.add(socket);
        try {
          return { type: 'result', result: toWireResult(await backend.generate(request.source, request.options, gone)), usedPreviewProps: false };
        } finally {
          generating.delete(socket);
        }
      }
    }
  }

  const server = net.createServer((socket) => {
    socket.on('error', () => undefined); // a client killed mid-answer: its answer has nowhere to go
    connections.add(socket);
    const gone = new AbortController();
    socket.on('close', () => {
      gone.abort();
      generating.delete(socket);
      connections.delete(socket);
    });
    readMessages<WireRequest>(
      socket,
      (request) => {
        const work = request.type === 'render' || request.type === 'generate' || request.type === 'nail';
        // Stopping: a request that arrives now is not refused with an error but dropped, so its
        // CLI renders in-process (a lost renderer) rather than failing.
        if (work && stopping) return void socket.destroy();
        if (work) {
          inFlight++;
          // A nail call is counted once this renderer takes it (nail-serve.ts): one it declines comes back by the thin path.
          if (request.type !== 'nail') {
            served++;
            // A call that did not come by the nail path (declined there, or a generate, or the CLI's own): this renderer is the one the next nail call tries.
            markLast();
          }
          clearTimeout(idleTimer);
        }
        answer(socket, request, gone.signal)
          .catch((error: unknown): WireAnswer => {
            if (gone.signal.aborted) log(`${request.type === 'nail' ? 'render' : request.type} ended after its CLI went away: ${(error as Error).message}`);
            return { type: 'error', error: toWireError(error) };
          })
          .then((reply) => {
            // A render the stop cut short failed for the renderer's sake, not the document's: dropped, as above.
            if (work && stopping && (reply.type === 'error' || (reply.type === 'nailed' && reply.error))) return void socket.destroy();
            if (!socket.destroyed) writeMessage(socket, reply);
          })
          .finally(() => {
            if (work) inFlight--;
            armIdle();
          });
      },
      (line) => log(`unreadable request: ${line.slice(0, 200)}`),
    );
  });

  /** Names this renderer's socket in the runtime folder's LAST_RENDERER_FILE, for nail calls (client/nail-client.ts); written whole (a temp file, then a rename). */
  function markLast() {
    const dir = path.dirname(spec.paths.socket);
    const temp = path.join(dir, `${LAST_RENDERER_FILE}.${process.pid}.tmp`);
    try {
      fs.writeFileSync(temp, path.basename(spec.paths.socket), { mode: 0o600 });
      fs.renameSync(temp, path.join(dir, LAST_RENDERER_FILE));
    } catch (error) {
      // Only nail calls are slower without it: they go by the thin path.
      log(`could not write ${LAST_RENDERER_FILE}: ${(error as Error).message}`);
    }
  }

  function stop(why: string): Promise<void> {
    return (stopping ??= (async () => {
      log(`stopping: ${why}`);
      clearTimeout(idleTimer);
      // The socket goes first: a CLI arriving now starts a new renderer instead of waiting on this one.
      fs.rmSync(spec.paths.socket, { force: true });
      server.close();
      try {
        await backend.close();
        await launchAhead.drop();
        await egress.close();
      } finally {
        releaseLock(spec.paths.lock);
        // Answers already written are flushed by end(); a render cut short is retried by its CLI.
        for (const socket of connections) socket.end();
      }
    })());
  }
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // A CLI's terminal closing must not take the renderer with it: it was started detached.
  process.on('SIGHUP', () => undefined);

  // A socket file left by a renderer that died: this process holds the lock, so it is nobody's.
  fs.rmSync(spec.paths.socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The socket is created 0600 (the bind happens within listen()), so there is no moment where
    // another user could connect; the umask goes back at once, Chromium's profile needs the usual one.
    const umask = process.umask(0o177);
    try {
      server.listen(spec.paths.socket, () => resolve());
    } finally {
      process.umask(umask);
    }
  }).catch(async (error: unknown) => {
    await stop(`could not listen: ${(error as Error).message}`);
    throw error;
  });
  fs.chmodSync(spec.paths.socket, 0o600);
  log(`listening on ${spec.paths.socket} (pid ${process.pid}, idle ${spec.idleMs} ms)`);
  markLast();
  announce(READY_LINE);
  armIdle();
}
