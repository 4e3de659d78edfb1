/** Durations as operators write them: "90s", "15m", "24h", "7d", or plain milliseconds. */
import { ImprintError } from '../core/errors.js';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/;

export function parseDuration(text: string, what: string): number {
  const match = DURATION.exec(text.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[(match[2] ?? 'ms') as keyof typeof UNIT_MS] : NaN;
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new ImprintError('USAGE', `Invalid ${what} "${text}": use a positive duration such as 90s, 15m, 24h or 7d.`);
  }
  return Math.round(ms);
}
