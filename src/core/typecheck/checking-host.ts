/**
 * The compiler host of a type check: TypeScript's own, whose module and type-reference
 * resolution falls back to the types of what Imprint's bundler always provides when the
 * project cannot resolve them, and records who imports what.
 */
import path from 'node:path';
import type * as TS from 'typescript';
import { HTMLDOCS_SPECIFIER } from '../bundle/htmldocs-compat-plugin.js';
import { publicEntryTypes } from '../package-root.js';

/**
 * Types of the modules the bundler always provides, for a project that has not installed them:
 * the running Imprint's public entries, and its htmldocs components for `@htmldocs/react`.
 */
export function bundlerProvided(root: string): Record<string, string> {
  return {
    imprint: publicEntryTypes(root, 'lib/index.ts'),
    'imprint/react': publicEntryTypes(root, 'react/index.ts'),
    'imprint/einvoice': publicEntryTypes(root, 'core/einvoice/index.ts'),
    'imprint/client': path.join(root, 'client.d.ts'),
    [HTMLDOCS_SPECIFIER]: publicEntryTypes(root, 'compat/htmldocs/index.ts'),
  };
}

function extensionOf(ts: typeof TS, file: string): TS.Extension {
  if (file.endsWith('.d.ts')) return ts.Extension.Dts;
  return file.endsWith('.tsx') ? ts.Extension.Tsx : ts.Extension.Ts;
}

export interface CheckingHost {
  host: TS.CompilerHost;
  cache: TS.ModuleResolutionCache;
  /** Each file to the files its imports resolved to (absolute paths), filled as the program is built. */
  imports: Map<string, Set<string>>;
}

/**
 * Where the fallback types live and whose packages they see: the declarations of the running
 * Imprint import `react` (and csstype through it), which a global install does not carry types
 * for. Imports from inside Imprint's folder resolve from the project first, so the template and
 * Imprint's components are checked against one React, the project's.
 */
export interface FallbackScope {
  imprintRoot: string;
  projectDir: string;
}

export function createCheckingHost(ts: typeof TS, options: TS.CompilerOptions, fallback: Record<string, string>, scope: FallbackScope): CheckingHost {
  const host = ts.createCompilerHost(options, true);
  const cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), (name) => host.getCanonicalFileName(name), options);

  // Who imports what, as resolved: an error in a shared file belongs to every template that reaches it.
  const imports = new Map<string, Set<string>>();
  const insideImprint = (file: string) => path.resolve(file).startsWith(path.resolve(scope.imprintRoot) + path.sep);
  // Any file name in the project folder: resolution walks up from its folder.
  const fromProject = path.join(scope.projectDir, '__imprint_fallback_types__.ts');
  const isBare = (specifier: string) => !specifier.startsWith('.') && !path.isAbsolute(specifier);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, literalOptions, containingSourceFile) =>
    literals.map((literal) => {
      const mode = ts.getModeForUsageLocation(containingSourceFile, literal, literalOptions);
      const resolve = (from: string) => ts.resolveModuleName(literal.text, from, literalOptions, host, cache, redirected, mode);
      let resolved = insideImprint(containingFile) && isBare(literal.text) ? resolve(fromProject) : resolve(containingFile);
      if (!resolved.resolvedModule && insideImprint(containingFile) && isBare(literal.text)) resolved = resolve(containingFile);
      const own = fallback[literal.text];
      if (!resolved.resolvedModule && own) resolved = { resolvedModule: { resolvedFileName: own, extension: extensionOf(ts, own), isExternalLibraryImport: true } };
      if (resolved.resolvedModule) {
        const from = path.resolve(containingFile);
        if (!imports.has(from)) imports.set(from, new Set());
        imports.get(from)!.add(path.resolve(resolved.resolvedModule.resolvedFileName));
      }
      return resolved;
    });

  // `"types": ["imprint/client"]` (what init writes) or a `/// <reference types>` to it, the same way.
  const typeCache = ts.createTypeReferenceDirectiveResolutionCache(host.getCurrentDirectory(), (name) => host.getCanonicalFileName(name), options, cache.getPackageJsonInfoCache());
  host.resolveTypeReferenceDirectiveReferences = (references, containingFile, redirected, referenceOptions, containingSourceFile) =>
    references.map((reference) => {
      // As TypeScript names them: a tsconfig's `types` entry as written, a triple-slash reference in lower case.
      const name = typeof reference === 'string' ? reference : reference.fileName.toLowerCase();
      const mode = typeof reference === 'string' ? undefined : ts.getModeForFileReference(reference, containingSourceFile?.impliedNodeFormat);
      const resolved = ts.resolveTypeReferenceDirective(name, containingFile, referenceOptions, host, redirected, typeCache, mode);
      const own = fallback[name];
      if (resolved.resolvedTypeReferenceDirective?.resolvedFileName || !own) return resolved;
      return { resolvedTypeReferenceDirective: { primary: true, resolvedFileName: own, isExternalLibraryImport: true } };
    });

  return { host, cache, imports };
}
