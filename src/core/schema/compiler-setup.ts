/**
 * The TypeScript program a schema is read from: the template's own tsconfig (for its path
 * aliases and JSX settings) with what only costs time switched off. Types are read, never
 * checked, and nothing is emitted.
 *
 * Parsing the standard library is most of the cost of a program (about a second); the host
 * keeps parsed files by path and modification time, so `imprint dev` re-deriving a schema
 * after each save pays it once.
 */
import fs from 'node:fs';
import path from 'node:path';
import type * as TS from 'typescript';
import { templateCompilerDefaults } from '../template-compiler-defaults.js';
import { loadTypescript } from './load-lazily.js';

export function compilerOptionsFor(templateFile: string): TS.CompilerOptions {
  const ts = loadTypescript();
  const configFile = ts.findConfigFile(path.dirname(templateFile), ts.sys.fileExists);
  let options = templateCompilerDefaults(ts);
  if (configFile) {
    const read = ts.readConfigFile(configFile, ts.sys.readFile);
    // A tsconfig TypeScript cannot read is reported by the editor; the schema falls back to defaults.
    if (!read.error) options = { ...options, ...ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configFile)).options };
  }
  return {
    ...options,
    noEmit: true,
    skipLibCheck: true,
    // Props are plain data: the ES library is enough, and the DOM's declarations alone would double the time.
    lib: ['lib.es2022.d.ts'],
    // Global @types packages (node, jest...) are not imported by a template's props.
    types: [],
  };
}

interface CachedFile {
  mtimeMs: number;
  /** The parse settings, as text: TypeScript hands in a fresh options object per program. */
  settings: string;
  sourceFile: TS.SourceFile;
}

export function createCachingHost() {
  const cache = new Map<string, CachedFile>();
  return (options: TS.CompilerOptions): TS.CompilerHost => {
    const host = loadTypescript().createCompilerHost(options, true);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
      const mtimeMs = fs.statSync(fileName, { throwIfNoEntry: false })?.mtimeMs;
      const settings = JSON.stringify(languageVersion);
      const cached = cache.get(fileName);
      if (cached && mtimeMs !== undefined && cached.mtimeMs === mtimeMs && cached.settings === settings) return cached.sourceFile;
      const sourceFile = read(fileName, languageVersion, onError, shouldCreate);
      if (sourceFile && mtimeMs !== undefined) cache.set(fileName, { mtimeMs, settings, sourceFile });
      return sourceFile;
    };
    return host;
  };
}
