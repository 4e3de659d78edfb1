/**
 * A download's progress on stderr. On a terminal: one line redrawn in place, a bar with the
 * share done, the megabytes and the speed. Elsewhere (pipes, CI logs): a plain line at every
 * tenth of the download (every 10 MB when the size is unknown), so a log shows it moving
 * without a line per chunk or a single escape code.
 */
import { interactive } from './interactive.js';

export interface DownloadProgress {
  /** Called with the bytes received so far and the total (0 when the server did not say). */
  update(downloaded: number, total: number): void;
  /** Ends the terminal's bar with its last state; nothing to do for plain lines. */
  finish(): void;
}

interface ProgressStream {
  write(text: string): unknown;
}

export interface DownloadProgressOptions {
  stream?: ProgressStream;
  interactive?: boolean;
  now?: () => number;
}

const MB = 1_000_000;
const BAR_WIDTH = 24;
const REDRAW_MS = 100;
const UNKNOWN_SIZE_STEP = 10 * MB;

export const megabytes = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

const percent = (downloaded: number, total: number) => Math.min(100, Math.floor((downloaded * 100) / total));

/** A plain progress line: "Downloaded 40% (35.6 of 89.0 MB)", or "Downloaded 35.6 MB" without a total. */
export function progressLine(downloaded: number, total: number): string {
  if (total <= 0) return `Downloaded ${megabytes(downloaded)}`;
  return `Downloaded ${percent(downloaded, total)}% (${(downloaded / MB).toFixed(1)} of ${megabytes(total)})`;
}

/** The terminal's bar: "[#########---------------]  40%  35.6 of 89.0 MB  3.2 MB/s". */
export function barLine(downloaded: number, total: number, elapsedMs: number): string {
  const speed = elapsedMs > 0 ? `  ${megabytes((downloaded * 1000) / elapsedMs)}/s` : '';
  if (total <= 0) return `${megabytes(downloaded)}${speed}`;
  const filled = Math.round((BAR_WIDTH * percent(downloaded, total)) / 100);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  return `${bar} ${String(percent(downloaded, total)).padStart(3)}%  ${(downloaded / MB).toFixed(1)} of ${megabytes(total)}${speed}`;
}

export function startDownloadProgress(options: DownloadProgressOptions = {}): DownloadProgress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  const started = now();
  if (!(options.interactive ?? interactive())) {
    let printed = 0;
    return {
      update(downloaded, total) {
        // The step reached: a tenth of the download, or 10 MB of one of unknown size.
        const step = total > 0 ? Math.floor((downloaded * 10) / total) : Math.floor(downloaded / UNKNOWN_SIZE_STEP);
        if (step > printed) {
          printed = step;
          stream.write(`${progressLine(downloaded, total)}\n`);
        }
      },
      finish() {},
    };
  }
  let drawnAt = -Infinity;
  let last: [number, number] | undefined;
  let drawn: [number, number] | undefined;
  const draw = () => {
    if (!last || last === drawn) return;
    drawn = last;
    drawnAt = now();
    // \r back to the line's start, \x1b[K clears what a longer earlier line left.
    stream.write(`\r${barLine(last[0], last[1], drawnAt - started)}\x1b[K`);
  };
  return {
    update(downloaded, total) {
      last = [downloaded, total];
      if (now() - drawnAt >= REDRAW_MS || (total > 0 && downloaded >= total)) draw();
    },
    finish() {
      if (!last) return;
      draw();
      stream.write('\n');
    },
  };
}
