/**
 * The TypeScript a project is checked with: the project's own (the version its editor and `tsc`
 * use, so the check agrees with them), else Imprint's (a dependency of Imprint, so there is
 * always one). A project's TypeScript older than 5 lacks the compiler host Imprint resolves
 * modules with, so it is checked with Imprint's, and the report says so.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TS from 'typescript';

export interface Compiler {
  ts: typeof TS;
  version: string;
  /** Whose TypeScript it is, and why Imprint's when the project has one. */
  from: 'project' | 'imprint';
  note?: string;
}

/** The major versions whose compiler API this module uses (resolveModuleNameLiterals, TS 5.0). */
const OLDEST_MAJOR = 5;

export function compilerFor(projectDir: string, own: () => typeof TS): Compiler {
  const fromImprint = (note?: string): Compiler => {
    const ts = own();
    return { ts, version: ts.version, from: 'imprint', note };
  };
  let entry: string;
  try {
    // Resolved as the project's code would: its node_modules, then those of the folders above it.
    entry = createRequire(path.join(projectDir, 'package.json')).resolve('typescript');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return fromImprint();
    throw error;
  }
  const ts = createRequire(entry)(entry) as typeof TS;
  if (Number(ts.version.split('.')[0]) < OLDEST_MAJOR) return fromImprint(`the project's TypeScript ${ts.version} is older than ${OLDEST_MAJOR}.0`);
  return { ts, version: ts.version, from: 'project' };
}
