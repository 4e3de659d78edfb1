/**
 * `react/jsx-dev-runtime` for a build that must say where each element was written
 * (`imprint check --a11y`, `imprint dev`): esbuild's JSX dev transform hands `jsxDEV` the
 * element's file, line and column, React 19 drops them (no `_source` any more, and its
 * production build has no jsxDEV at all), so this module keeps them and makes the element with
 * React's production `jsx`/`jsxs`, exactly as the normal build would.
 *
 * The position is kept against the element's props object, which React hands on untouched as
 * the fiber's props: from a DOM node, its fiber and the fibers above it (the components that
 * rendered it) give the positions of the JSX that made it, nearest first. Nothing is added to
 * the DOM or to the props a component sees.
 */
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';

export { Fragment };

interface JsxSource {
  fileName: string;
  lineNumber: number;
  columnNumber: number;
}

/** What the page reports for a node: where its JSX and its components' JSX were written, nearest first. */
export interface WrittenAt {
  file: string;
  line: number;
  column: number;
}

const positions = new WeakMap<object, JsxSource>();

type Props = Record<string, unknown>;

export function jsxDEV(type: Parameters<typeof jsx>[0], props: Props, key: string | undefined, isStaticChildren: boolean, source?: JsxSource) {
  const element = (isStaticChildren ? jsxs : jsx)(type, props, key);
  if (source && element.props && typeof element.props === 'object') positions.set(element.props as object, source);
  return element;
}

interface FiberLike {
  return: FiberLike | null;
  memoizedProps?: unknown;
  pendingProps?: unknown;
}

/** React's internal link from a DOM node to its fiber (`__reactFiber$<random>`, the same since React 17). */
function fiberOf(node: Node): FiberLike | undefined {
  const key = Object.keys(node).find((name) => name.startsWith('__reactFiber$'));
  return key ? ((node as unknown as Record<string, FiberLike>)[key] ?? undefined) : undefined;
}

const MAX_POSITIONS = 40;

function writtenAt(node: Node): WrittenAt[] {
  const found: WrittenAt[] = [];
  for (let fiber = fiberOf(node); fiber && found.length < MAX_POSITIONS; fiber = fiber.return ?? undefined) {
    for (const props of [fiber.memoizedProps, fiber.pendingProps]) {
      const source = props && typeof props === 'object' ? positions.get(props) : undefined;
      if (source) {
        found.push({ file: source.fileName, line: source.lineNumber, column: source.columnNumber });
        break;
      }
    }
  }
  return found;
}

declare global {
  interface Window {
    /** Installed by a build with source positions only; the a11y check asks it about each finding's node. */
    __imprintWrittenAt?: (node: Node) => WrittenAt[];
  }
}

window.__imprintWrittenAt = writtenAt;
