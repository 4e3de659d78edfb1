/**
 * Where a nail call's time goes inside the renderer, for a renderer started with
 * IMPRINT_RENDERER_TIMING=1: one log line a call, which bench/profile-warm-call.ts reads back
 * (parseNailTiming) to split a warm call's wait on the socket into its phases. The marks inside
 * the render are the ones the pool and the print already set for the service's metrics
 * (render-timing.ts); a renderer started without the setting records none.
 */
import type { RenderMarks } from '../../../core/render/render-timing.js';

export interface NailClock {
  /** The request read from the socket. */
  received: number;
  /** The call checked (settings, renderer, destination) and its props file read. */
  checked: number;
  /** The render's marks: the pool's queue and slot, the print's start and end. */
  marks: RenderMarks;
  /** The render returned: printed and finished (Info dictionary, dates, language). */
  rendered: number;
  /** The PDF written beside its destination and renamed into place. */
  delivered: number;
}

/** The phases in the order a call goes through them, each in ms. */
function nailPhases(clock: NailClock): Array<[string, number]> {
  const { received, checked, marks, rendered, delivered } = clock;
  const admitted = marks.admitted ?? checked;
  const printStart = marks['print-start'] ?? admitted;
  const printEnd = marks['print-end'] ?? printStart;
  return [
    ['check', checked - received],
    ['slot', admitted - checked],
    ['page', printStart - admitted],
    ['print', printEnd - printStart],
    ['finish', rendered - printEnd],
    ['write', delivered - rendered],
  ];
}

const NAIL_TIMING_PREFIX = 'nail call timing (ms):';

export const describeNailTiming = (clock: NailClock): string =>
  `${NAIL_TIMING_PREFIX} ${nailPhases(clock)
    .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
    .join(', ')}`;

/** Reads a line of describeNailTiming back: each phase's ms by name, or undefined for another line. */
export function parseNailTiming(line: string): Record<string, number> | undefined {
  const at = line.indexOf(NAIL_TIMING_PREFIX);
  if (at < 0) return undefined;
  const phases: Record<string, number> = {};
  for (const part of line.slice(at + NAIL_TIMING_PREFIX.length).split(',')) {
    const [name, value] = part.trim().split(' ');
    phases[name] = Number(value);
  }
  return phases;
}
