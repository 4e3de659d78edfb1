/**
 * A template that throws in the page reports a stack of positions in the minified artifact.
 * The artifact's source map turns them back into the template author's own file:line:column,
 * skipping frames in React and in our page runtime, so the message points at their code.
 */
import { SourceMap } from 'node:module';
import { ARTIFACT_SCRIPT_PATH, TEMPLATE_ORIGIN } from '../../runtime/page-protocol.js';

const FRAME = new RegExp(`${TEMPLATE_ORIGIN.replace(/[.]/g, '\\.')}${ARTIFACT_SCRIPT_PATH}:(\\d+):(\\d+)`, 'g');

export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** Frames in npm packages, our page runtime, our components or the generated entry are not the author's. */
const isAuthorCode = (source: string) =>
  !source.includes('node_modules') && !/src[\\/](runtime|react)[\\/]/.test(source) && !source.includes('imprint-entry');

export function locateInTemplate(stack: string | undefined, sourceMapText: string | undefined): SourceLocation | undefined {
  if (!stack || !sourceMapText) return undefined;
  let map: SourceMap;
  try {
    map = new SourceMap(JSON.parse(sourceMapText));
  } catch {
    return undefined; // a damaged map only costs us the location, never the error itself
  }
  for (const match of stack.matchAll(FRAME)) {
    const entry = map.findEntry(Number(match[1]) - 1, Number(match[2]) - 1) as {
      originalSource?: string;
      originalLine?: number;
      originalColumn?: number;
    };
    if (entry?.originalSource && isAuthorCode(entry.originalSource)) {
      return { file: entry.originalSource, line: (entry.originalLine ?? 0) + 1, column: (entry.originalColumn ?? 0) + 1 };
    }
  }
  return undefined;
}
