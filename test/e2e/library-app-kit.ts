/**
 * For the library tests: a Node app of the user's that imports `imprint` by its name. Its folder
 * has a package.json and the installed package under test linked into node_modules as an
 * install puts it (the folder above BIN). The app is TypeScript: type-checked by tsc --strict
 * against the package's own declarations, and run as a user of Node 24 may run it (type
 * stripping), as a child with a deadline, with no Imprint API of the test runner's environment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BIN, ROOT } from '../helpers/cli.js';
import { run, type Run } from './package-kit.js';

/**
 * The apps' recorder: `attempt(name, call)` writes the PDF a call makes to `<name>.pdf`, or notes
 * the code and message it rejects with; `outcomes` is what each call did (print it last as JSON).
 * The app imports fs and ImprintError.
 */
export const ATTEMPT_TS = `const outcomes: Record<string, string> = {};
async function attempt(name: string, call: () => Promise<Uint8Array>): Promise<void> {
  try {
    fs.writeFileSync(name + '.pdf', await call());
    outcomes[name] = 'written';
  } catch (error) {
    outcomes[name] = error instanceof ImprintError ? error.code + ': ' + error.message : 'not an ImprintError: ' + String(error);
  }
}
`;

/** Makes `app` (and the folders above it) an app that depends on the installed package; `files`: its sources by name. */
export function makeLibraryApp(app: string, name: string, files: Record<string, string> = {}): void {
  fs.mkdirSync(path.join(app, 'node_modules'), { recursive: true });
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  fs.symlinkSync(path.resolve(path.dirname(BIN), '..'), path.join(app, 'node_modules', 'imprint'), 'dir');
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(app, file), text);
}

/** tsc --strict over the app's `files`: the checkout's TypeScript stands in for the app's own; the types it reads are the package's. */
export function typecheckLibraryApp(app: string, files: string[], timeoutMs: number): Promise<Run> {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = ['--noEmit', '--strict', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022', '--types', 'node', '--typeRoots', path.join(ROOT, 'node_modules', '@types'), ...files];
  return run(process.execPath, [tsc, ...args], { cwd: app, env: process.env, timeoutMs });
}

/** Runs the app's `<name>.ts` (copied to .mts: Node strips the types of an ES module); `env` is added to the runner's, without its IMPRINT_API_*. */
export function runLibraryApp(app: string, name: string, env: Record<string, string | undefined>, timeoutMs: number): Promise<Run> {
  fs.copyFileSync(path.join(app, `${name}.ts`), path.join(app, `${name}.mts`));
  const appEnv = { ...process.env, IMPRINT_API_URL: undefined, IMPRINT_API_KEY: undefined, ...env };
  return run(process.execPath, ['--experimental-strip-types', '--no-warnings', `${name}.mts`], { cwd: app, env: appEnv, timeoutMs });
}

/** The outcomes an app that used ATTEMPT_TS printed as its last line. */
export const outcomesOf = (ran: Run): Record<string, string> => JSON.parse(ran.stdout.trim().split('\n').at(-1)!) as Record<string, string>;
