/**
 * The artifact's source map as a lookup: a position in the minified artifact.js back to the
 * template author's file:line:column, and a minified function name (`uo`) back to the name
 * written (`Row`). Read once per artifact: a render error, a console error and a component
 * stack all ask the same map.
 *
 * Node's own SourceMap (node:module) decodes the map: the lookup is all that is needed, it
 * ships with every Node Imprint supports, and a VLQ decoder of ours would be code to keep
 * right for nothing. A map gives no function names for stack frames, only the names of the
 * identifiers at each position, so a frame's name is found at its declaration in the artifact
 * (`function uo(`), whose mapping carries the name as written.
 */
import { SourceMap } from 'node:module';
import type { Artifact } from '../artifact.js';

/** 1-based, as editors and stack traces count; `file` is relative to the template's project. */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

export interface TemplateSourceMap {
  /** Where a 1-based artifact position was written, or undefined when the map does not say. */
  position(line: number, column: number): (SourcePosition & { author: boolean }) | undefined;
  /**
   * The name as written of the function the artifact calls `minified`, declared in the
   * author's code. `before`: the frame's own position, whose function is the nearest declaration
   * before it (minified names repeat across scopes). Without it, only a component's declaration
   * (a capitalised name) that is the only one of that name in the author's code.
   */
  authorFunction(minified: string, before?: { line: number; column: number }): { name: string; at: SourcePosition } | undefined;
  /** Whether the artifact declares a function of this name at all (a host element such as `div` is not one). */
  declares(name: string): boolean;
}

/**
 * Files bundled into every artifact that are not the author's: npm packages (React), and
 * Imprint's page runtime, `imprint/react` and the htmldocs components (src/ in a checkout,
 * dist/ in the package), and the generated entry.
 */
const NOT_AUTHOR = [/(^|[\\/])node_modules[\\/]/, /(^|[\\/])(src|dist)[\\/](runtime|react|compat[\\/]htmldocs)[\\/][^\\/]+$/, /^imprint-entry\.tsx$/];
export const isAuthorSource = (source: string) => !NOT_AUTHOR.some((pattern) => pattern.test(source));

interface MapEntry {
  originalSource?: string;
  originalLine?: number;
  originalColumn?: number;
  name?: string;
}

interface Declaration {
  offset: number;
  line: number;
  column: number;
  entry: MapEntry;
}

const cache = new WeakMap<Artifact, TemplateSourceMap | null>();

const escapeRegExp = (text: string) => text.replace(/[$\\^.*+?()[\]{}|]/g, '\\$&');

function build(artifact: Artifact): TemplateSourceMap | null {
  if (!artifact.sourceMap) return null;
  let map: SourceMap;
  try {
    map = new SourceMap(JSON.parse(artifact.sourceMap));
  } catch {
    return null; // a damaged map only costs the locations, never the error itself
  }
  const js = artifact.js;
  const lineStarts = [0];
  for (let at = js.indexOf('\n'); at >= 0; at = js.indexOf('\n', at + 1)) lineStarts.push(at + 1);
  const lineOf = (offset: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  };

  const entryAt = (line0: number, column0: number) => map.findEntry(line0, column0) as MapEntry;
  const toPosition = (entry: MapEntry): SourcePosition | undefined =>
    entry?.originalSource === undefined ? undefined : { file: entry.originalSource, line: (entry.originalLine ?? 0) + 1, column: (entry.originalColumn ?? 0) + 1 };

  const declarations = new Map<string, Declaration[]>();
  // `function uo(`, `class uo`, `uo=(...)=>`, `uo=function`: where a minified function gets its name.
  const declarationsOf = (name: string): Declaration[] => {
    let found = declarations.get(name);
    if (found) return found;
    const id = escapeRegExp(name);
    const pattern = new RegExp(`(?:\\bfunction\\s*\\*?\\s*|\\bclass\\s+)(${id})(?![\\w$])|(?<![\\w$.])(${id})=(?=\\(|async\\b|function\\b|[\\w$]+=>)`, 'g');
    found = [];
    for (const match of js.matchAll(pattern)) {
      // `function uo` ends with the name; `uo=` starts with it.
      const offset = match[1] !== undefined ? match.index + match[0].length - name.length : match.index;
      const line = lineOf(offset);
      const column = offset - lineStarts[line];
      found.push({ offset, line, column, entry: entryAt(line, column) });
    }
    declarations.set(name, found);
    return found;
  };
  const authorDeclaration = (declaration: Declaration) => declaration.entry?.originalSource !== undefined && isAuthorSource(declaration.entry.originalSource);
  const named = (declaration: Declaration, minified: string) => ({ name: declaration.entry.name ?? minified, at: toPosition(declaration.entry)! });

  return {
    position(line, column) {
      const at = toPosition(entryAt(line - 1, column - 1));
      return at && { ...at, author: isAuthorSource(at.file) };
    },
    authorFunction(minified, before) {
      const candidates = declarationsOf(minified);
      if (before) {
        const offset = (lineStarts[before.line - 1] ?? Infinity) + before.column - 1;
        const enclosing = candidates.filter((declaration) => declaration.offset <= offset).at(-1);
        return enclosing && authorDeclaration(enclosing) ? named(enclosing, minified) : undefined;
      }
      const components = candidates.filter((declaration) => authorDeclaration(declaration) && /^[A-Z]/.test(declaration.entry.name ?? minified));
      return components.length === 1 ? named(components[0], minified) : undefined;
    },
    declares: (name) => declarationsOf(name).length > 0,
  };
}

export function templateSourceMap(artifact: Artifact): TemplateSourceMap | undefined {
  let found = cache.get(artifact);
  if (found === undefined) cache.set(artifact, (found = build(artifact)));
  return found ?? undefined;
}
