/**
 * Where an error of the template points, as a file the author's editor can open: the first
 * `file:line:column` in the message (a build error names it relative to where `imprint dev`
 * was started, a render error relative to the template's project), resolved against the
 * folders it may be relative to and kept only if the file is there.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ErrorLocation } from '../../web/studio/protocol.js';

export type { ErrorLocation };

const POSITION = /([^\s():]+\.(?:tsx|jsx|ts|js|mjs|css)):(\d+):(\d+)/;

export function locateError(message: string | undefined, folders: string[]): ErrorLocation | undefined {
  const match = message ? POSITION.exec(message) : null;
  if (!match) return undefined;
  const candidates = path.isAbsolute(match[1]) ? [match[1]] : [process.cwd(), ...folders].map((dir) => path.resolve(dir, match[1]));
  const file = candidates.find((candidate) => fs.statSync(candidate, { throwIfNoEntry: false })?.isFile());
  return file ? { file, line: Number(match[2]), column: Number(match[3]) } : undefined;
}
