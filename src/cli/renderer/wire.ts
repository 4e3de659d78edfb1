/**
 * What the CLI and its warm renderer say to each other over the socket: one JSON message a
 * line. A PDF travels as base64 inside its line (a few hundred KiB; the socket is local).
 * Errors travel as {code, message, details}, so the CLI prints and exits with exactly what
 * the same failure in its own process would give.
 */
import type net from 'node:net';
import { ImprintError, type ErrorCode } from '../../core/errors.js';
import type { EgressDenial } from '../../core/net/egress-proxy.js';
import type { RenderOptions } from '../../core/render-request.js';
import type { HtmlSource } from '../../core/render/render-html.js';
import type { RenderResult } from '../../core/result-forms.js';

export type WireRequest =
  | { type: 'hello' }
  | { type: 'render'; ref: string; props: unknown; options: RenderOptions; version?: number }
  | { type: 'generate'; source: HtmlSource; options: RenderOptions }
  | { type: 'stop' };

export interface RendererStatus {
  key: string;
  pid: number;
  startedAt: string;
  idleMs: number;
  dataDir: string;
  /** Requests served since it started. */
  served: number;
  /** Renders under way now. */
  active: number;
}

export type WireResult = { format: 'pdf'; pdf: string } | Exclude<RenderResult, { format: 'pdf' }>;

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
  | { type: 'stopping' };

export const toWireResult = (result: RenderResult): WireResult => (result.format === 'pdf' ? { format: 'pdf', pdf: result.pdf.toString('base64') } : result);

export const fromWireResult = (result: WireResult): RenderResult => (result.format === 'pdf' ? { format: 'pdf', pdf: Buffer.from(result.pdf, 'base64') } : result);

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
