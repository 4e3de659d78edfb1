/**
 * The folder of imprint's own package. The bundler needs it to find the page runtime
 * (src/runtime) and, when a user's project has no React of its own, our React.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  // Works from src/core (run by tsx) and from dist/ (the built CLI) alike.
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'src', 'runtime', 'mount.tsx'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('imprint is installed incompletely: src/runtime/mount.tsx is missing.');
    dir = parent;
  }
  cached = dir;
  return dir;
}
