/**
 * How TypeScript reads a template whose project has no tsconfig.json: the settings `imprint init`
 * writes (strict, React's JSX, the bundler's module resolution) plus JavaScript and JSON
 * imports. Both readers of templates start from these: the props schema (core/schema) and the
 * type check (core/typecheck), each adding what its job needs.
 */
import type * as TS from 'typescript';

export function templateCompilerDefaults(ts: typeof TS): TS.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.ReactJSX,
    strict: true,
    esModuleInterop: true,
    allowJs: true,
    resolveJsonModule: true,
  };
}
