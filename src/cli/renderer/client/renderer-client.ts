/**
 * The CLI's side of the warm renderer: find the renderer for these settings, start it when
 * there is none (or replace one of another build), and send it one request. Anything that
 * goes wrong with the renderer itself (it cannot start, crashed, hangs) is a RendererLost,
 * on which the caller renders in its own process instead: a renderer may cost a call a
 * retry, never its document.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { ImprintError } from '../../../core/errors.js';
import type { EgressDenial } from '../../../core/net/egress-proxy.js';
import type { Environment } from '../../../backend/environment.js';
import { isAlive, lockHolder } from '../renderer-lock.js';
import { BUSY_LINE, READY_LINE } from '../renderer-announce.js';
import type { OpenRenderer, RendererSpec } from '../renderer-target.js';
import { RENDERER_SPEC_ENV } from '../renderer-settings.js';
import { checkSocketOwner } from '../runtime-dir.js';
import { fromWireError, fromWireResult, readMessages, writeMessage, type RendererStatus, type WireAnswer, type WireRequest } from '../wire.js';
import type { RenderResult } from '../../../core/result-forms.js';

/** The hidden first argument that makes the CLI's entry point run a renderer (entry.ts). */
export const RENDERER_ARG = '__imprint-renderer';

/** How long a renderer may take to start, and to answer a hello, before the CLI gives up on it. */
const START_DEADLINE_MS = 20_000;
const HELLO_DEADLINE_MS = 10_000;
/** Beyond the render's own deadline (the renderer answers RENDER_TIMEOUT itself): a hung renderer. */
const ANSWER_GRACE_MS = 30_000;
const RETIRE_DEADLINE_MS = 10_000;

/** The renderer failed as a process: the caller renders in-process instead. */
export class RendererLost extends Error {
  constructor(why: string) {
    super(`The warm renderer was lost: ${why}`);
    this.name = 'RendererLost';
  }
}

export interface RendererConnection {
  readonly status: RendererStatus;
  render(request: Extract<WireRequest, { type: 'render' }>): Promise<{ result: RenderResult; usedPreviewProps: boolean }>;
  generate(request: Extract<WireRequest, { type: 'generate' }>, onDenied: (denial: EgressDenial) => void): Promise<RenderResult>;
  close(): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function connectSocket(socketPath: string): Promise<net.Socket | undefined> {
  // Only a socket this user made is talked to: another user's would be sent the document and
  // its answer written as the PDF (runtime-dir.ts).
  const owner = checkSocketOwner(socketPath);
  if (owner === 'absent') return Promise.resolve(undefined);
  if (owner !== 'ours') return Promise.reject(new RendererLost(`its socket is not to be trusted: ${owner.refused}`));
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      // Held open only while a request waits: a connection the command never used keeps no process alive.
      socket.unref();
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      // No renderer: no socket file, or one left by a renderer that is gone.
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(undefined);
      else reject(error);
    });
  });
}

/**
 * One connection. Answers come back in the order the requests were sent, so several may be
 * in flight (the thin path writes its hello and its request together).
 */
function session(socket: net.Socket, pid: () => number | undefined) {
  interface Pending {
    resolve: (answer: WireAnswer) => void;
    reject: (error: Error) => void;
    timer: NodeJS.Timeout;
    denied?: (denial: EgressDenial) => void;
  }
  const pending: Pending[] = [];
  let lost: Error | undefined;
  const fail = (error: Error) => {
    lost ??= error;
    socket.unref();
    for (const waiting of pending.splice(0)) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
  };
  socket.on('error', (error) => fail(new RendererLost(error.message)));
  socket.on('close', () => fail(new RendererLost('it closed the connection before answering')));
  readMessages<WireAnswer>(
    socket,
    (answer) => {
      // A refused request of a page: told to the generate waiting (the last one sent).
      if (answer.type === 'denied') return pending[pending.length - 1]?.denied?.(answer.denial);
      const waiting = pending.shift();
      if (!waiting) return;
      clearTimeout(waiting.timer);
      if (pending.length === 0) socket.unref();
      waiting.resolve(answer);
    },
    () => fail(new RendererLost('it sent an unreadable answer')),
  );
  return {
    ask(request: WireRequest, deadlineMs: number, denied?: (denial: EgressDenial) => void): Promise<WireAnswer> {
      if (lost) return Promise.reject(lost);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          // A renderer that does not answer is hung: it is killed so the next call starts a new one.
          const hung = pid();
          if (hung !== undefined) killQuietly(hung);
          fail(new RendererLost(`no answer within ${Math.round(deadlineMs / 1000)} s`));
        }, deadlineMs);
        pending.push({ resolve, reject, timer, denied });
        socket.ref();
        writeMessage(socket, request);
      });
    },
    close: () => socket.destroy(),
  };
}

function killQuietly(pid: number | undefined) {
  // 0 and negative pids name process groups: never signalled.
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

async function waitForExit(pid: number, deadlineMs: number): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (isAlive(pid)) {
    if (Date.now() > until) return false;
    await sleep(25);
  }
  return true;
}

/** Connects and says hello; undefined when no renderer listens there. */
async function greet(spec: RendererSpec): Promise<{ talk: ReturnType<typeof session>; status: RendererStatus } | undefined> {
  const socket = await connectSocket(spec.paths.socket);
  if (!socket) return undefined;
  let status: RendererStatus | undefined;
  const talk = session(socket, () => status?.pid ?? lockHolder(spec.paths.lock));
  const answer = await talk.ask({ type: 'hello' }, HELLO_DEADLINE_MS);
  if (answer.type !== 'hello') throw new RendererLost(`it answered ${answer.type} to hello`);
  const { type: _hello, ...fields } = answer;
  status = fields;
  return { talk, status };
}

/** Asks a renderer to stop and waits for its process to end (killed if it does not). */
async function retire(talk: ReturnType<typeof session>, status: RendererStatus): Promise<void> {
  await talk.ask({ type: 'stop' }, HELLO_DEADLINE_MS).catch(() => undefined);
  talk.close();
  if (!(await waitForExit(status.pid, RETIRE_DEADLINE_MS))) {
    killQuietly(status.pid);
    await waitForExit(status.pid, RETIRE_DEADLINE_MS);
  }
}

/** Starts a renderer detached from this process; resolves once it listens, or another one does. */
function startRenderer(spec: RendererSpec, env: Environment, entryScript: string): Promise<'ready' | 'busy'> {
  const logFd = fs.openSync(spec.paths.log, 'a', 0o600);
  try {
    if (fs.fstatSync(logFd).size > 1 << 20) fs.ftruncateSync(logFd, 0);
    // The settings and the handshake key go in the environment, which only this user can read
    // (/proc/<pid>/environ), never in argv, which every user sees in `ps`.
    const child = spawn(process.execPath, [entryScript, RENDERER_ARG], {
      detached: true,
      stdio: ['ignore', 'pipe', logFd],
      env: { ...env, [RENDERER_SPEC_ENV]: JSON.stringify(spec) },
    });
    return new Promise((resolve, reject) => {
      let said = '';
      const timer = setTimeout(() => finish(new RendererLost(`it did not start within ${START_DEADLINE_MS / 1000} s (see ${spec.paths.log})`)), START_DEADLINE_MS);
      const finish = (outcome: 'ready' | 'busy' | Error) => {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.stdout?.removeAllListeners('data');
        child.stdout?.destroy();
        child.unref();
        if (outcome instanceof Error) {
          killQuietly(child.pid);
          reject(outcome);
        } else resolve(outcome);
      };
      child.once('error', (error) => finish(new RendererLost(`it could not be started: ${error.message}`)));
      child.once('exit', (code) => finish(said.startsWith(BUSY_LINE) ? 'busy' : new RendererLost(`it exited (code ${code}) before listening (see ${spec.paths.log})`)));
      child.stdout?.setEncoding('utf8');
      child.stdout?.on('data', (chunk: string) => {
        said += chunk;
        if (said.startsWith(`${READY_LINE}\n`)) finish('ready');
        else if (said.startsWith(`${BUSY_LINE}\n`)) finish('busy');
      });
    });
  } finally {
    fs.closeSync(logFd);
  }
}

/** Waits for a renderer another process is starting. */
async function greetWithin(spec: RendererSpec, deadlineMs: number) {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const greeted = await greet(spec);
    if (greeted || Date.now() > until) return greeted;
    await sleep(50);
  }
}

/** A render's or generate's answer as the command takes it: its result, or the error it carries. */
function resultOf(answer: WireAnswer) {
  if (answer.type === 'error') throw fromWireError(answer.error);
  if (answer.type !== 'result') throw new RendererLost(`it answered ${answer.type} to a render`);
  return answer;
}

function connection(talk: ReturnType<typeof session>, status: RendererStatus, timeoutMs: number): RendererConnection {
  const deadline = timeoutMs + ANSWER_GRACE_MS;
  return {
    status,
    async render(request) {
      const answer = resultOf(await talk.ask(request, deadline));
      return { result: fromWireResult(answer.result), usedPreviewProps: answer.usedPreviewProps };
    },
    async generate(request, onDenied) {
      return fromWireResult(resultOf(await talk.ask(request, deadline, onDenied)).result);
    },
    close: () => talk.close(),
  };
}

/**
 * The renderer for these settings: the running one, or one started now. A renderer of
 * another build is stopped and replaced. Throws RendererLost when none can be had.
 */
/** A Unix socket's path must fit in sun_path (108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 103;

export async function openRenderer({ spec, env, entryScript }: OpenRenderer): Promise<RendererConnection> {
  if (Buffer.byteLength(spec.paths.socket) > MAX_SOCKET_PATH) {
    throw new RendererLost(`its socket path is too long for a Unix socket (${spec.paths.socket}): set IMPRINT_RUNTIME_DIR to a shorter folder`);
  }
  try {
    let greeted = await greet(spec);
    if (greeted && greeted.status.key !== spec.key) {
      await retire(greeted.talk, greeted.status);
      greeted = undefined;
    }
    if (!greeted) {
      const started = await startRenderer(spec, env, entryScript);
      greeted = started === 'ready' ? await greet(spec) : await greetWithin(spec, START_DEADLINE_MS);
    }
    if (!greeted) throw new RendererLost('it did not answer after starting');
    if (greeted.status.key !== spec.key) {
      greeted.talk.close();
      throw new RendererLost('another build of Imprint started one for these settings at the same time');
    }
    return connection(greeted.talk, greeted.status, spec.settings.renderTimeoutMs);
  } catch (error) {
    if (error instanceof RendererLost || error instanceof ImprintError) throw error;
    throw new RendererLost((error as Error).message);
  }
}

/**
 * The running renderer for these settings, without starting or replacing one: undefined when
 * none answers at the socket or the one that does is of other settings or another build. The
 * thin path of bin/imprint.js (fast-render.ts) uses it; the CLI, which can start one, does not.
 */
export async function connectRunningRenderer(spec: RendererSpec): Promise<RendererConnection | undefined> {
  if (Buffer.byteLength(spec.paths.socket) > MAX_SOCKET_PATH) return undefined;
  const greeted = await greet(spec).catch(() => undefined);
  if (!greeted) return undefined;
  if (greeted.status.key !== spec.key) {
    greeted.talk.close();
    return undefined;
  }
  return connection(greeted.talk, greeted.status, spec.settings.renderTimeoutMs);
}

/** A request sent with the hello (askRunningRenderer): its answer, once the hello said the renderer is this CLI's. */
export interface AskedRenderer {
  answer: Promise<{ result: RenderResult; usedPreviewProps: boolean }>;
  close(): void;
}

/**
 * The thin path's call (fast-render.ts): the hello and the request written at once, one round
 * trip fewer than greeting first. The answer is taken only when the hello's key is this CLI's;
 * a renderer of other settings or another build has its connection closed (it cancels that
 * render, as for a CLI that went away, and writes nothing) and undefined is returned, as when
 * none runs: the full CLI then takes the call.
 */
export async function askRunningRenderer(spec: RendererSpec, request: Extract<WireRequest, { type: 'render' | 'generate' }>, onDenied?: (denial: EgressDenial) => void): Promise<AskedRenderer | undefined> {
  if (Buffer.byteLength(spec.paths.socket) > MAX_SOCKET_PATH) return undefined;
  const socket = await connectSocket(spec.paths.socket).catch(() => undefined);
  if (!socket) return undefined;
  let pid: number | undefined;
  const talk = session(socket, () => pid ?? lockHolder(spec.paths.lock));
  // Both lines in one write: the renderer wakes once and reads them together.
  socket.cork();
  const hello = talk.ask({ type: 'hello' }, HELLO_DEADLINE_MS);
  const asked = talk.ask(request, spec.settings.renderTimeoutMs + ANSWER_GRACE_MS, onDenied);
  socket.uncork();
  // Settled below or dropped with the connection: never an unhandled rejection.
  asked.catch(() => undefined);
  const greeted = await hello.catch(() => undefined);
  if (greeted?.type !== 'hello' || greeted.key !== spec.key) {
    talk.close();
    return undefined;
  }
  pid = greeted.pid;
  return {
    answer: asked.then((answer) => {
      const { result, usedPreviewProps } = resultOf(answer);
      return { result: fromWireResult(result), usedPreviewProps };
    }),
    close: () => talk.close(),
  };
}

/** The running renderer's status, without starting one. */
export async function rendererStatus(spec: RendererSpec): Promise<RendererStatus | undefined> {
  const greeted = await greet(spec).catch(() => undefined);
  greeted?.talk.close();
  return greeted?.status;
}

/** Stops the renderer at `spec`'s socket; returns its pid, or undefined when none ran. */
export async function stopRenderer(spec: Pick<RendererSpec, 'paths'>): Promise<number | undefined> {
  const greeted = await greet(spec as RendererSpec).catch(() => undefined);
  if (greeted) {
    await retire(greeted.talk, greeted.status);
    return greeted.status.pid;
  }
  // Not answering: a renderer that hangs, or is still starting, is ended by its lock's pid.
  const pid = lockHolder(spec.paths.lock);
  if (pid !== undefined && isAlive(pid)) {
    process.kill(pid, 'SIGTERM');
    if (!(await waitForExit(pid, RETIRE_DEADLINE_MS))) killQuietly(pid);
    return pid;
  }
  return undefined;
}
