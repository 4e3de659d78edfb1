/**
 * Which warm renderer a CLI may use. A renderer holds a data folder, a browser and a network
 * policy: a CLI with other settings must never be served by it. The settings (less the
 * version) name its socket, so other settings get a renderer of their own; the full key,
 * version and build included, is checked in the handshake, so a renderer left by another
 * build of Imprint is stopped and replaced rather than used.
 */
// SHA-256 in plain JavaScript: node:crypto costs the thin path (client/fast-render.ts) about 3 to 6 ms
// of CPU to load, for one hash of a few hundred bytes. Same digest as createHash('sha256').
import sha256 from 'fast-sha256';
import { DEFAULT_RENDER_TIMEOUT_MS } from '../../core/render/deadline.js';
import { DEFAULT_SPOOL_FROM_BYTES } from '../../core/spool/spool-policy.js';
import { imprintVersion } from '../../core/version.js';
import { parseDuration } from '../../backend/duration.js';
import type { BrowserSettings } from '../../backend/browser-settings.js';
import { envSwitch, envText, envValue, type Environment } from '../../backend/environment.js';

export interface RendererSettings {
  dataDir: string;
  browser: BrowserSettings;
  /** generate --allow-local: its pages' network policy lives in the renderer's egress proxy. */
  allowLocal: boolean;
  renderTimeoutMs: number;
  /** IMPRINT_SPOOL_FROM (backend/spool-setting.ts): a renderer spools from one threshold, so a call with another gets a renderer of its own. */
  spoolFromBytes: number;
}

export interface RendererIdentity {
  /** Names the socket: a hash of the settings. */
  name: string;
  /** Compared in the handshake: the settings, Imprint's version and this build of it. */
  key: string;
}

/**
 * How the CLI hands a renderer it starts its settings and key: in this variable of the
 * renderer's environment, which only its user can read (/proc/<pid>/environ is 0400), never on
 * its command line, which every user sees in `ps`. The renderer removes it at once.
 */
export const RENDERER_SPEC_ENV = 'IMPRINT_RENDERER_SPEC';

/**
 * The value with every object's keys in sorted order: the same settings hash the same however
 * they were gathered. The browser's environment is taken in the order of the process's
 * variables, which a shell's `exec` may reorder: without this, one loop's calls could name two
 * renderers for the same settings.
 */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, canonical(record[key])]));
}

const hash = (value: unknown) => Buffer.from(sha256(Buffer.from(JSON.stringify(canonical(value)), 'utf8'))).toString('hex');

/** `build`: what tells two builds of one version apart (the CLI entry file's mtime). */
export function rendererIdentity(settings: RendererSettings, build: string): RendererIdentity {
  const name = hash(settings).slice(0, 16);
  return { name, key: hash({ settings, version: imprintVersion(), build }).slice(0, 32) };
}

/**
 * `renderTimeoutMs`: the calls' deadline (--timeout, IMPRINT_TIMEOUT), `spoolFromBytes` their
 * spool threshold (IMPRINT_SPOOL_FROM): a renderer serves one of each, so another gets a renderer of its own.
 */
export const defaultRendererSettings = (
  dataDir: string,
  browser: BrowserSettings,
  allowLocal: boolean,
  renderTimeoutMs = DEFAULT_RENDER_TIMEOUT_MS,
  spoolFromBytes = DEFAULT_SPOOL_FROM_BYTES,
): RendererSettings => ({
  dataDir,
  browser,
  allowLocal,
  renderTimeoutMs,
  spoolFromBytes,
});

/** IMPRINT_RENDERER=off (or 0): every render runs in the CLI's own process, as --no-renderer. */
export function rendererEnabled(env: Environment, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  const text = envText(env, 'IMPRINT_RENDERER');
  return text === undefined ? true : envSwitch(env, 'IMPRINT_RENDERER');
}

export const DEFAULT_IDLE_MS = 60_000;

/** IMPRINT_RENDERER_IDLE: how long the renderer waits for work before it exits (90s, 10m; a plain number is milliseconds). */
export const rendererIdleMs = (env: Environment): number =>
  envValue(env, 'IMPRINT_RENDERER_IDLE', 'IMPRINT_RENDERER_IDLE', (text) => parseDuration(text, 'idle time')) ?? DEFAULT_IDLE_MS;

/** IMPRINT_RENDERER_TIMING=1: the renderer started now writes each nail call's phases to its log (bench/profile-warm-call.ts reads them). */
export const rendererTiming = (env: Environment): boolean => envSwitch(env, 'IMPRINT_RENDERER_TIMING');
