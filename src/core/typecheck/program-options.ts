/**
 * The compiler options a template is checked with: its project's tsconfig.json (the nearest
 * above the template, `extends` followed, and for a solution-style tsconfig the referenced
 * project that includes the template), else defaults that accept what `imprint init` writes
 * (strict, React's JSX, the bundler's module resolution, the DOM). Whatever the tsconfig says
 * about output is switched off: the check emits nothing.
 */
import path from 'node:path';
import type * as TS from 'typescript';
import { templateCompilerDefaults } from '../template-compiler-defaults.js';

export interface ProgramSetup {
  /** The tsconfig.json used, or undefined for the defaults. */
  configFile?: string;
  options: TS.CompilerOptions;
  /** Declaration files the tsconfig includes (global types, `declare module '*.css'`...): a template sees them as `tsc -p` would. */
  declarationFiles: string[];
  /** What TypeScript said about the tsconfig itself (an unknown option, a broken `extends`). */
  configErrors: TS.Diagnostic[];
}

/** "No inputs were found in config file": the check gives its own inputs, the templates. */
const NO_INPUTS = 18003;

export function defaultOptions(ts: typeof TS): TS.CompilerOptions {
  // A template runs in a page: the DOM's types too.
  return { ...templateCompilerDefaults(ts), skipLibCheck: true, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'] };
}

/** The project's options with everything about output turned off (a composite project would otherwise insist on its file list). */
export function forChecking(options: TS.CompilerOptions): TS.CompilerOptions {
  return { ...options, noEmit: true, composite: false, incremental: false, declaration: false, declarationMap: false, emitDeclarationOnly: false, tsBuildInfoFile: undefined, outDir: undefined, outFile: undefined };
}

/** Parsed tsconfigs by path, for one check: a folder of templates shares one. */
export type ConfigCache = Map<string, TS.ParsedCommandLine>;

function parse(ts: typeof TS, configFile: string, cache: ConfigCache): TS.ParsedCommandLine {
  const known = cache.get(configFile);
  if (known) return known;
  const parsed = parseUncached(ts, configFile);
  cache.set(configFile, parsed);
  return parsed;
}

function parseUncached(ts: typeof TS, configFile: string): TS.ParsedCommandLine {
  const unrecoverable: TS.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, undefined, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => unrecoverable.push(diagnostic) });
  if (!parsed) return { options: {}, fileNames: [], errors: unrecoverable };
  return { ...parsed, errors: [...unrecoverable, ...parsed.errors.filter((error) => error.code !== NO_INPUTS)] };
}

const sameFile = (a: string, b: string) => path.resolve(a) === path.resolve(b);

export function programSetup(ts: typeof TS, templateFile: string, defaults: TS.CompilerOptions, cache: ConfigCache = new Map()): ProgramSetup {
  const found = ts.findConfigFile(path.dirname(templateFile), ts.sys.fileExists);
  if (!found) return { options: forChecking(defaults), declarationFiles: [], configErrors: [] };
  let configFile = path.resolve(found);
  let parsed = parse(ts, configFile, cache);
  // A solution-style tsconfig (Vite's: `"files": []` and references) names its settings in the project that holds the file.
  if (!parsed.fileNames.some((file) => sameFile(file, templateFile))) {
    for (const reference of parsed.projectReferences ?? []) {
      const referenced = path.resolve(ts.resolveProjectReferencePath(reference));
      const candidate = parse(ts, referenced, cache);
      if (candidate.fileNames.some((file) => sameFile(file, templateFile))) {
        configFile = referenced;
        parsed = candidate;
        break;
      }
    }
  }
  return {
    configFile,
    options: forChecking(parsed.options),
    declarationFiles: parsed.fileNames.filter((file) => /\.d\.[cm]?ts$/.test(file)).map((file) => path.resolve(file)),
    configErrors: parsed.errors,
  };
}
