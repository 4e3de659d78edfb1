/**
 * A template's error as its author reads it. The page reports two stacks of positions in the
 * minified artifact: the script's (where the error was thrown, through React's work loop) and
 * React's component stack (which components were rendering). Each frame is turned back into
 * the author's file:line:column through the artifact's source map (template-source-map.ts),
 * named as written, and dropped when it is React's or Imprint's own code, so what is left is
 * the author's code, never a minified frame.
 */
import type { Artifact } from '../artifact.js';
import { ARTIFACT_SCRIPT_PATH, TEMPLATE_ORIGIN, type PageRenderError } from '../../runtime/page-protocol.js';
import { templateSourceMap, type SourcePosition, type TemplateSourceMap } from './template-source-map.js';

interface Frame {
  /** The function's name as the stack gives it, `Object.` or `new ` taken off. */
  name?: string;
  /** A position in the artifact, when the frame is in it. */
  line?: number;
  column?: number;
}

const FRAME = /^\s*at (?:(.+?) \((.*)\)|(.+))$/;
const ARTIFACT_URL = `${TEMPLATE_ORIGIN}${ARTIFACT_SCRIPT_PATH}`;
const POSITION = /^(.*):(\d+):(\d+)$/;

const shortName = (name: string) =>
  name
    .replace(/^(async|new) /, '')
    .replace(/ \[as [^\]]+\]$/, '')
    .split('.')
    .at(-1);

function parseFrame(line: string): Frame | undefined {
  const match = FRAME.exec(line);
  if (!match) return undefined;
  const [name, where] = match[3] === undefined ? [match[1], match[2]] : POSITION.test(match[3]) ? [undefined, match[3]] : [match[3], undefined];
  const position = where === undefined ? null : POSITION.exec(where);
  // The artifact's URL, with or without a query (a dev preview adds one).
  const inArtifact = position !== null && position[1].split('?')[0] === ARTIFACT_URL;
  return { name: name && shortName(name), line: inArtifact ? Number(position[2]) : undefined, column: inArtifact ? Number(position[3]) : undefined };
}

const framesOf = (stack: string | undefined) => (stack ?? '').split('\n').flatMap((line) => parseFrame(line) ?? []);

export const formatPosition = (at: SourcePosition) => `${at.file}:${at.line}:${at.column}`;

interface Shown {
  text: string;
  /** At a line of the author's code (not a host element such as `div`). */
  located: boolean;
}

/** A frame in the artifact, at the author's line; undefined for React's and Imprint's code. */
function authorFrame(frame: Frame, map: TemplateSourceMap): Shown | undefined {
  if (frame.line === undefined || frame.column === undefined) return undefined;
  const at = map.position(frame.line, frame.column);
  if (!at?.author) return undefined;
  const name = frame.name && map.authorFunction(frame.name, { line: frame.line, column: frame.column })?.name;
  return { text: name ? `at ${name} (${formatPosition(at)})` : `at ${formatPosition(at)}`, located: true };
}

/**
 * A component stack frame. React gives a position for a component only when it could make one
 * throw; the others, and host elements, come as a bare name: a component of the author's is
 * found at its declaration, a name the artifact never declares is a host element or one of
 * React's own (`section`, `Suspense`), shown as it is; any other is Imprint's or React's.
 */
function componentFrame(frame: Frame, map: TemplateSourceMap): Shown | undefined {
  if (frame.line !== undefined) return authorFrame(frame, map);
  if (!frame.name) return undefined;
  const declared = map.authorFunction(frame.name);
  if (declared) return { text: `at ${declared.name} (${formatPosition(declared.at)})`, located: true };
  return /^[A-Za-z][\w-]*$/.test(frame.name) && !map.declares(frame.name) ? { text: `at ${frame.name}`, located: false } : undefined;
}

/** The first frame of `stack` in the author's code: where a template's error was thrown. */
export function locateInTemplate(stack: string | undefined, artifact: Artifact): SourcePosition | undefined {
  const map = templateSourceMap(artifact);
  if (!map) return undefined;
  for (const frame of framesOf(stack)) {
    if (frame.line === undefined || frame.column === undefined) continue;
    const at = map.position(frame.line, frame.column);
    if (at?.author) return { file: at.file, line: at.line, column: at.column };
  }
  return undefined;
}

/**
 * The lines under a template error's message: its script stack, then the components that were
 * rendering (up to the template's own root: what is above it is Imprint's page runtime).
 * Undefined when there is nothing of the author's to show, or no source map to show it with.
 */
export function templateStackDetails(error: PageRenderError | undefined, artifact: Artifact): string | undefined {
  const map = templateSourceMap(artifact);
  if (!map || !error) return undefined;
  const script = framesOf(error.stack).flatMap((frame) => authorFrame(frame, map) ?? []);
  const components = framesOf(error.componentStack).flatMap((frame) => componentFrame(frame, map) ?? []);
  const rendering = components.slice(0, components.map((shown) => shown.located).lastIndexOf(true) + 1);
  const lines = script.map((shown) => shown.text);
  if (rendering.length > 0) lines.push('component stack:', ...rendering.map((shown) => `  ${shown.text}`));
  return lines.length > 0 ? lines.join('\n') : undefined;
}
