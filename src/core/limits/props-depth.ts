/**
 * How deeply a props value nests, measured without recursion: a 10 MiB body can hold five
 * million nested arrays, and a recursive walk would overflow the stack on exactly the input
 * this check exists to refuse. The walk stops as soon as the limit is passed, so its cost is
 * bounded by the size of the value, never by its depth.
 */
import { ImprintError } from '../errors.js';

/**
 * The nesting depth of a JSON-like value, counting objects and arrays (a scalar is 0,
 * `{}` and `{"a": 1}` are 1, `{"a": [1]}` is 2). With `stopAbove`, any depth above it is
 * reported as `stopAbove + 1` without walking further.
 */
export function jsonDepth(value: unknown, stopAbove = Number.POSITIVE_INFINITY): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > stopAbove) return stopAbove + 1;
    for (const child of Object.values(node as object)) {
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** Refuses props nested deeper than `maxDepth` levels (400, naming the limit). */
export function checkPropsDepth(props: unknown, maxDepth: number): void {
  if (!Number.isFinite(maxDepth)) return;
  if (jsonDepth(props, maxDepth) > maxDepth) {
    throw new ImprintError(
      'INVALID_INPUT',
      `Invalid props: they nest more than ${maxDepth} levels deep (objects and arrays), the most this service accepts. Flatten the data the template receives.`,
    );
  }
}
