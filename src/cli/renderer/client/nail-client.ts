/**
 * The nail path of `imprint render <id>` (bin/imprint.js, built alone as CommonJS into
 * dist/nail-client.cjs): the call is sent whole (its arguments, working folder, environment)
 * to the renderer used last, before anything of Imprint loads; the renderer, whose code is
 * hot, checks it and runs it (process/nail-serve.ts): the settings and the renderer's identity, the
 * props file, the render, the PDF written. A warm call in a shell loop then costs Node's start,
 * this file and the render.
 *
 * Nothing is decided here: which renderer the call's settings name, and whether it is this
 * build's, is checked by the renderer with the thin path's own functions, and it declines
 * (having done and written nothing) when anything differs; so does this side when there is no
 * renderer to ask or it is lost before answering. The thin path (fast-render.ts) then takes the
 * call, and after it the full CLI, as before.
 *
 * Trust is the thin path's: the runtime folder must be this user's private folder (else the
 * thin path makes it safe first), the socket this user's own, and the socket's name is read
 * from a file in that folder that only this user could have written.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { isatty } from 'node:tty';
import { renderTimeoutMs } from '../../../backend/render-timeout.js';
import { parseFastArgs } from '../fast-args.js';
import { isPrivateDir } from '../../io/private-dir.js';
import { checkSocketOwner, isSocketName, LAST_RENDERER_FILE, runtimeDirPath } from '../runtime-dir.js';
import type { NailAnswer, NailRequest } from '../wire.js';

/** As the thin path waits for a render (renderer-client.ts): the render's deadline (IMPRINT_TIMEOUT), then a grace for a hung renderer. */
const ANSWER_GRACE_MS = 30_000;
const MAX_SOCKET_PATH = 103;

/** The socket of the renderer used last, when it can be trusted; undefined otherwise. */
function lastRendererSocket(): string | undefined {
  const dir = runtimeDirPath(process.env);
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (!stat || !isPrivateDir(stat)) return undefined;
  let name: string;
  try {
    name = fs.readFileSync(path.join(dir, LAST_RENDERER_FILE), 'utf8');
  } catch {
    return undefined;
  }
  if (!isSocketName(name)) return undefined;
  const socket = path.join(dir, name);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH || checkSocketOwner(socket) !== 'ours') return undefined;
  return socket;
}

/** The renderer's one-line answer, or undefined when it went away or did not answer in time. */
function ask(socketPath: string, request: NailRequest, deadlineMs: number): Promise<NailAnswer | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    let received = '';
    const finish = (answer: NailAnswer | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    // A renderer that does not answer: declined, and the thin path finds out what is wrong with it.
    const timer = setTimeout(() => finish(undefined), deadlineMs);
    socket.on('error', () => finish(undefined));
    socket.on('close', () => finish(undefined));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      // The line's end is looked for in the new chunk only: a PDF for stdout comes in many chunks.
      const inChunk = chunk.indexOf('\n');
      const end = inChunk < 0 ? -1 : received.length + inChunk;
      received += chunk;
      if (end < 0) return;
      let answer: unknown;
      try {
        answer = JSON.parse(received.slice(0, end));
      } catch {
        // Not an answer to a nail (a renderer of an older build): declined.
      }
      finish(answer && typeof answer === 'object' && ((answer as NailAnswer).type === 'nailed' || (answer as NailAnswer).type === 'declined') ? (answer as NailAnswer) : undefined);
    });
    socket.write(`${JSON.stringify(request)}\n`);
  });
}

/**
 * true: the call is answered and its outcome line written; an answer: the call is done and the
 * client shows the rest (fast-render.ts finishNailed: a note, an error, a PDF for stdout);
 * false: declined, nothing written.
 */
export async function nailRender(args: readonly string[], cliEntry: string): Promise<true | Extract<NailAnswer, { type: 'nailed' }> | false> {
  // Another form (a flag the thin path does not take, --no-renderer, a template file...): not worth a round trip.
  if (!parseFastArgs(args)) return false;
  let socket;
  let deadlineMs;
  try {
    socket = lastRendererSocket();
    deadlineMs = renderTimeoutMs(undefined, process.env) + ANSWER_GRACE_MS;
  } catch {
    // A bad IMPRINT_TIMEOUT among them: the full CLI reports it.
    return false;
  }
  if (!socket) return false;
  const answer = await ask(socket, {
    type: 'nail',
    argv: [...args],
    cwd: process.cwd(),
    env: { ...process.env },
    cli: cliEntry,
    stdoutIsTTY: isatty(1),
    stderrIsTTY: isatty(2),
    umask: process.umask(),
    gid: process.getegid?.() ?? -1,
    groups: process.getgroups?.() ?? [],
  }, deadlineMs);
  if (answer?.type !== 'nailed') return false;
  // The common case, written here: a file written, nothing else to say (the terminal's progress UI is declined by the renderer).
  if (answer.line !== undefined && answer.pdf === undefined && !answer.usedPreviewProps && !answer.error) {
    process.stderr.write(`${answer.line}\n`);
    return true;
  }
  return answer;
}
