/**
 * The layers of src/ (issue 37): the CLI and the library are faces over one local layer,
 * src/backend, over the engine, src/core: cli → backend → core and lib → backend → core. Every
 * import of a room below a face, type imports and dynamic import() included, stays among the
 * rooms it may use, so a library that reached into the CLI again, or a core that reached up,
 * fails here and names the file and the import.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';
import { ROOT } from '../helpers/checkout.js';

const SRC = path.join(ROOT, 'src');

/** What each room may import besides itself. The faces (cli, dashboard) are not listed: nothing below may import them. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  core: ['runtime'],
  client: ['core'],
  backend: ['core', 'client'],
  lib: ['backend', 'core'],
  server: ['core', 'client'],
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const roomOf = (file: string) => path.relative(SRC, file).split(path.sep)[0];

/** Every relative import of `file` (static, type-only, re-exports and import()), as the room it lands in. */
function importedRooms(file: string): { specifier: string; room: string }[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }) => ({ specifier: fileName, room: roomOf(path.resolve(path.dirname(file), fileName)) }));
}

describe('the rooms of src/ import only downwards', () => {
  for (const [room, allowed] of Object.entries(MAY_IMPORT)) {
    test(`src/${room} imports only ${[room, ...allowed].map((name) => `src/${name}`).join(', ')}`, () => {
      const crossings = sourceFiles(path.join(SRC, room)).flatMap((file) =>
        importedRooms(file)
          .filter((target) => target.room !== room && !allowed.includes(target.room))
          .map((target) => `${path.relative(ROOT, file)} imports '${target.specifier}' (src/${target.room})`),
      );
      assert.deepEqual(crossings, []);
    });
  }
});
