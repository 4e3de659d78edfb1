// Builds the CLI into dist/cli.js: one ES module with our sources bundled and npm packages
// left external, so `imprint` starts without compiling TypeScript on every run.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/cli.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
