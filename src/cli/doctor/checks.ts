/**
 * `imprint doctor`'s checks: each finds out one thing a render needs and, when it is
 * missing, says how to fix it. A check never throws; what it found is its result. `needed`
 * marks the checks whose failure stops a render (the command then exits 1); the others
 * (fonts, poppler) only warn.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ImprintError, type ErrorCode } from '../../core/errors.js';
import { imprintManifest } from '../../core/package-root.js';
import { findBrowser, INSTALL_HINT } from '../../core/render/find-browser.js';
import { openSqlite } from '../../core/sqlite-driver.js';
import type { BrowserSettings } from '../../backend/browser-settings.js';
import type { Connection } from '../config/mode.js';

const exec = promisify(execFile);
const TOOL_TIMEOUT_MS = 15_000;

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'info';

export interface CheckResult {
  /** Stable, for --json readers: node, browser, fonts, poppler, data-folder, sqlite, renderer, service. */
  id: string;
  title: string;
  status: CheckStatus;
  /** What was found. */
  detail: string;
  /** What to run or do when it is not ok. */
  fix?: string;
  /** The error code a failure stands for (the command's exit, --json's readers). */
  code?: ErrorCode;
}

const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';

/**
 * Whether `version` is in `range`, the engines field's form (the one place the supported Node
 * versions are written): alternatives joined by `||`, each `>=a.b.c` or `^a.b.c` (that major,
 * from a.b.c on). A range in another form is not judged here (npm warns of it at install).
 */
export function satisfiesRange(version: string, range: string): boolean {
  const have = version.split('.').map(Number);
  const atLeast = (need: number[]) => {
    for (let i = 0; i < 3; i++) if ((have[i] ?? 0) !== need[i]) return (have[i] ?? 0) > need[i]!;
    return true;
  };
  const parts = range.split('||').map((part) => /^(>=|\^)\s*(\d+)\.(\d+)\.(\d+)$/.exec(part.trim()));
  if (parts.some((part) => !part)) return true;
  return parts.some((part) => {
    const need = part!.slice(2, 5).map(Number);
    return atLeast(need) && (part![1] === '>=' || have[0] === need[0]);
  });
}

export function checkNode(version = process.versions.node): CheckResult {
  const range = imprintManifest().engines.node;
  return satisfiesRange(version, range)
    ? { id: 'node', title: 'Node.js', status: 'ok', detail: `${version} (needs ${range})` }
    : { id: 'node', title: 'Node.js', status: 'fail', detail: `${version}, but Imprint needs ${range}`, fix: 'Install Node.js 24 LTS (or 22 LTS) from https://nodejs.org or your package manager.', code: 'USAGE' };
}

export async function checkBrowser(settings: BrowserSettings, needed: boolean): Promise<CheckResult> {
  let file: string;
  try {
    file = await findBrowser(settings.search);
  } catch (error) {
    const message = error instanceof ImprintError ? error.message : String(error);
    return { id: 'browser', title: 'Browser', status: needed ? 'fail' : 'warn', detail: message.replace(` ${INSTALL_HINT}`, ''), fix: INSTALL_HINT, code: 'BROWSER_NOT_FOUND' };
  }
  try {
    const { stdout } = await exec(file, ['--version'], { timeout: TOOL_TIMEOUT_MS });
    return { id: 'browser', title: 'Browser', status: 'ok', detail: `${firstLine(stdout)} (${file})` };
  } catch (error) {
    // What the browser said, e.g. a shared library a downloaded Chrome misses on a bare
    // container; execFile's message starts with "Command failed: <file> --version" instead.
    const said = firstLine((error as { stderr?: string }).stderr ?? '');
    return {
      id: 'browser',
      title: 'Browser',
      status: needed ? 'fail' : 'warn',
      detail: `${file} does not start: ${said || firstLine((error as Error).message)}`,
      fix: `Reinstall it, or point imprint at another with --browser <path> or IMPRINT_BROWSER. ${INSTALL_HINT}`,
      code: 'BROWSER_FAILED',
    };
  }
}

export async function checkFonts(): Promise<CheckResult> {
  try {
    const { stdout } = await exec('fc-list', ['--format', '%{family[0]}\n'], { timeout: TOOL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
    const families = new Set(stdout.split('\n').filter(Boolean));
    if (families.size > 0) return { id: 'fonts', title: 'Fonts', status: 'ok', detail: `${families.size} font families installed` };
    return { id: 'fonts', title: 'Fonts', status: 'warn', detail: 'no fonts installed: text without fonts of its own prints in boxes', fix: 'apt-get install -y fonts-dejavu-core (Debian/Ubuntu), or bundle the fonts with the template.' };
  } catch {
    return { id: 'fonts', title: 'Fonts', status: 'warn', detail: 'fontconfig (fc-list) was not found, so the system fonts are unknown', fix: 'apt-get install -y fontconfig fonts-dejavu-core (Debian/Ubuntu).' };
  }
}

export async function checkPoppler(): Promise<CheckResult> {
  try {
    const { stderr, stdout } = await exec('pdftoppm', ['-v'], { timeout: TOOL_TIMEOUT_MS });
    return { id: 'poppler', title: 'Poppler (snapshots)', status: 'ok', detail: firstLine(stderr || stdout) };
  } catch {
    return {
      id: 'poppler',
      title: 'Poppler (snapshots)',
      status: 'warn',
      detail: 'pdftoppm and pdftotext were not found: `imprint check --snapshot` needs them (renders do not)',
      fix: 'apt-get install -y poppler-utils (Debian/Ubuntu), brew install poppler (macOS).',
    };
  }
}

/** The nearest folder that exists: where a missing data folder would be created. */
function existingAncestor(dir: string): string {
  let current = dir;
  while (!fs.existsSync(current)) current = path.dirname(current);
  return current;
}

export function checkDataFolder(dataDir: string): CheckResult {
  const exists = fs.existsSync(dataDir);
  const where = existingAncestor(dataDir);
  if (!fs.statSync(where).isDirectory()) {
    return {
      id: 'data-folder',
      title: 'Data folder',
      status: 'fail',
      detail: `${dataDir} cannot be a folder: ${where} is a file`,
      fix: 'Give another folder with --data-dir <dir> or IMPRINT_DATA_DIR.',
      code: 'OUTPUT_FAILED',
    };
  }
  try {
    fs.accessSync(where, fs.constants.W_OK);
  } catch {
    return {
      id: 'data-folder',
      title: 'Data folder',
      status: 'fail',
      detail: `${dataDir} ${exists ? 'is not writable' : `cannot be created: ${where} is not writable`} by this user`,
      fix: 'Give another folder with --data-dir <dir> or IMPRINT_DATA_DIR, or fix its permissions.',
      code: 'OUTPUT_FAILED',
    };
  }
  return { id: 'data-folder', title: 'Data folder', status: 'ok', detail: exists ? dataDir : `${dataDir} (created on first publish)` };
}

/** The store's driver, Node's own node:sqlite, opened on a database in memory. */
export function checkSqlite(): CheckResult {
  try {
    openSqlite(':memory:').close();
    return { id: 'sqlite', title: 'SQLite driver', status: 'ok', detail: `node:sqlite (SQLite ${process.versions.sqlite ?? 'unknown version'})` };
  } catch (error) {
    return { id: 'sqlite', title: 'SQLite driver', status: 'fail', detail: firstLine((error as Error).message), fix: 'Run Imprint on a Node that the Node.js check above accepts (Node 24 recommended): the data folder uses its node:sqlite.', code: 'INTERNAL' };
  }
}

export function rendererResult(enabled: boolean, status: { pid: number; served: number } | undefined): CheckResult {
  if (!enabled) return { id: 'renderer', title: 'Warm renderer', status: 'info', detail: 'off (--no-renderer or IMPRINT_RENDERER=off): each render starts Chromium' };
  if (!status) return { id: 'renderer', title: 'Warm renderer', status: 'info', detail: 'not running; the next render of a published template starts one' };
  return { id: 'renderer', title: 'Warm renderer', status: 'ok', detail: `running (pid ${status.pid}, ${status.served} renders served)` };
}

/** When logged in (or given a URL and key): the service answers, and takes the key. */
export async function checkService(connection: Connection, whoami: () => Promise<{ team: { name: string } }>): Promise<CheckResult> {
  if (!connection.apiUrl) return { id: 'service', title: 'Imprint API', status: 'info', detail: 'not logged in: commands render on this machine (embedded mode)' };
  if (!connection.apiKey) return { id: 'service', title: 'Imprint API', status: 'fail', detail: `${connection.apiUrl} has no API key`, fix: 'Run `imprint login` (or set IMPRINT_API_KEY).', code: 'UNAUTHORIZED' };
  try {
    const { team } = await whoami();
    return { id: 'service', title: 'Imprint API', status: 'ok', detail: `${connection.apiUrl} answers; the key is valid (team ${team.name})` };
  } catch (error) {
    const code = error instanceof ImprintError ? error.code : 'INTERNAL';
    const fix = code === 'UNAUTHORIZED' ? 'The key was refused: create a new one (`imprint key create` on the service) and run `imprint login`.' : 'Check the URL (`imprint whoami`), that the service is running, and your network.';
    return { id: 'service', title: 'Imprint API', status: 'fail', detail: firstLine((error as Error).message), fix, code };
  }
}

export const platformLine = () => `${os.type()} ${os.release()} ${process.arch}, Node ${process.versions.node}`;
