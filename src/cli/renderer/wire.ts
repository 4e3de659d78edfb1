/**
 * What the CLI and its warm renderer say to each other over the socket: one JSON message a
 * line. A PDF travels as base64 inside its line (a few hundred KiB; the socket is local).
 * Errors travel as {code, message, details}, so the CLI prints and exits with exactly what
 * the same failure in its own process would give.
 */
import { isSpooled, SpooledPdf } from '../../core/spool/spooled-pdf.js';
import type net from 'node:net';
import { ImprintError, type ErrorCode } from '../../core/errors.js';
import type { EgressDenial } from '../../core/net/egress-proxy.js';
import type { RenderOptions } from '../../core/render-request.js';
import type { HtmlSource } from '../../core/render/render-html.js';
import type { RenderResult } from '../../core/result-forms.js';

/** `file`: a template file's absolute path (rendered from the local template cache); `ref` is then how the user named it. */
export interface RenderRequest {
  type: 'render';
  ref: string;
  file?: string;
  props: unknown;
  options: RenderOptions;
  version?: number;
}

export type WireRequest =
  | { type: 'hello' }
  | RenderRequest
  | { type: 'generate'; source: HtmlSource; options: RenderOptions }
  | NailRequest
  | { type: 'stop' };

/**
 * A `render` call sent whole by bin/imprint.js's nail path (client/nail-client.ts), before it loads
 * anything of Imprint: the renderer checks it by the thin path's rules and runs it
 * (process/nail-serve.ts), or declines.
 */
export interface NailRequest {
  type: 'nail';
  /** process.argv after the script: `render <id> ...`. */
  argv: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** The client's dist/cli.js: its mtime is the build a renderer must match (cli-runtime.ts). */
  cli: string;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The client's umask, group and supplementary groups: the renderer writes the file only when they are its own. */
  umask: number;
  gid: number;
  groups: number[];
}

/**
 * The renderer's answer to a nail: declined (nothing done, nothing written: the client's thin
 * path or full CLI runs the call), or done, with what the client still shows: the outcome line
 * of a file written, the PDF for its stdout, the note on PreviewProps, or the error to print.
 */
export type NailAnswer =
  | { type: 'declined'; why: string }
  | { type: 'nailed'; line?: string; pdf?: string; usedPreviewProps?: boolean; error?: WireError };

export interface RendererStatus {
  key: string;
  pid: number;
  startedAt: string;
  idleMs: number;
  dataDir: string;
  /** Requests served since it started. */
  served: number;
  /** Of these, calls taken whole by the nail path (process/nail-serve.ts). */
  nailed: number;
  /** Renders under way now. */
  active: number;
  /** Template files it rendered: bundles built, and reused from the local template cache (memory or disk). */
  templateFiles?: { built: number; reused: number };
}

/**
 * A PDF crosses as base64; a spooled one (core/spool/spooled-pdf.ts) as its file's path: the
 * renderer runs on this machine as this user, and the client copies the file where it was asked
 * and removes it, so a big document never crosses the socket as one string.
 */
export type WireResult = { format: 'pdf'; pdf: string } | { format: 'pdf'; spooled: { file: string; bytes: number; pages?: number } } | Exclude<RenderResult, { format: 'pdf' }>;

export interface WireError {
  code?: ErrorCode;
  message: string;
  details?: string;
  retryAfterSeconds?: number;
  /** A failure that is not an ImprintError (a bug): shown with its stack, as in-process. */
  stack?: string;
}

export type WireAnswer =
  | ({ type: 'hello' } & RendererStatus)
  | { type: 'result'; result: WireResult; usedPreviewProps: boolean }
  | { type: 'error'; error: WireError }
  | { type: 'denied'; denial: EgressDenial }
  | NailAnswer
  | { type: 'stopping' };

export function toWireResult(result: RenderResult): WireResult {
  if (result.format !== 'pdf') return result;
  const { pdf } = result;
  return isSpooled(pdf) ? { format: 'pdf', spooled: { file: pdf.file, bytes: pdf.bytes, pages: pdf.pages } } : { format: 'pdf', pdf: pdf.toString('base64') };
}

export function fromWireResult(result: WireResult): RenderResult {
  if (result.format !== 'pdf') return result;
  return 'spooled' in result ? { format: 'pdf', pdf: new SpooledPdf(result.spooled.file, result.spooled.bytes, result.spooled.pages) } : { format: 'pdf', pdf: Buffer.from(result.pdf, 'base64') };
}

export function toWireError(error: unknown): WireError {
  if (error instanceof ImprintError) {
    const wire: WireError = { code: error.code, message: error.message };
    if (error.details !== undefined) wire.details = error.details;
    if (error.retryAfterSeconds !== undefined) wire.retryAfterSeconds = error.retryAfterSeconds;
    return wire;
  }
  return { message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined };
}

export function fromWireError(wire: WireError): Error {
  if (wire.code) return new ImprintError(wire.code, wire.message, { details: wire.details, retryAfterSeconds: wire.retryAfterSeconds });
  const error = new Error(wire.message);
  if (wire.stack) error.stack = wire.stack;
  return error;
}

/** Calls `onMessage` for each line the socket receives. */
export function readMessages<T>(socket: net.Socket, onMessage: (message: T) => void, onBadLine: (line: string) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (!line) continue;
      let message: T;
      try {
        message = JSON.parse(line) as T;
      } catch {
        onBadLine(line);
        continue;
      }
      onMessage(message);
    }
  });
}

export const writeMessage = (socket: net.Socket, message: WireRequest | WireAnswer): boolean => socket.write(`${JSON.stringify(message)}\n`);
