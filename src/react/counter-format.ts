/**
 * A number written in one of the CSS list styles a counter takes, for the section counters,
 * whose text Imprint writes itself (CSS has no counter for a page within a section).
 */
import type { CounterStyle } from './counters.js';

const ROMAN: [number, string][] = [
  [1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'],
  [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i'],
];

function roman(n: number): string {
  // CSS's roman styles stop at 3999 and fall back to decimal beyond.
  if (n < 1 || n > 3999) return String(n);
  let text = '';
  for (const [value, letters] of ROMAN) {
    for (; n >= value; n -= value) text += letters;
  }
  return text;
}

/** a..z, aa, ab...: bijective base 26, as CSS's alphabetic system. */
function alpha(n: number): string {
  if (n < 1) return String(n);
  let text = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) text = String.fromCharCode(97 + ((n - 1) % 26)) + text;
  return text;
}

export function formatCounter(n: number, style: CounterStyle): string {
  switch (style) {
    case 'decimal':
      return String(n);
    case 'decimal-leading-zero':
      return n >= 0 && n < 10 ? `0${n}` : String(n);
    case 'lower-roman':
      return roman(n);
    case 'upper-roman':
      return roman(n).toUpperCase();
    case 'lower-alpha':
      return alpha(n);
    case 'upper-alpha':
      return alpha(n).toUpperCase();
  }
}
