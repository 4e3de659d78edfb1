/**
 * TypeScript's diagnostics as the check reports them, and which template each belongs to.
 * Pure: the compiler's objects come in, plain data goes out.
 */
import path from 'node:path';
import type * as TS from 'typescript';

export interface TypeDiagnostic {
  /** Absolute path, or undefined for an error about the whole program (an option). */
  file?: string;
  /** 1-based, as editors count. */
  line?: number;
  column?: number;
  /** TypeScript's number: 2322 prints as TS2322. */
  code: number;
  message: string;
}

export function toTypeDiagnostic(ts: typeof TS, diagnostic: TS.Diagnostic): TypeDiagnostic {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (!diagnostic.file || diagnostic.start === undefined) return { file: diagnostic.file?.fileName && path.resolve(diagnostic.file.fileName), code: diagnostic.code, message };
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return { file: path.resolve(diagnostic.file.fileName), line: line + 1, column: character + 1, code: diagnostic.code, message };
}

/** "Cannot find module './x.png'", "Cannot find module './x.json'. Consider using '--resolveJsonModule'". */
const MODULE_NOT_FOUND = 2307;
const JSON_MODULE_NOT_FOUND = 2732;
/** What the bundler builds from an import besides code (client.d.ts types them). */
const BUNDLER_BUILT = /'[^']+\.(css|png|jpe?g|gif|webp|avif|woff2?|ttf|otf|svg|md|markdown|txt|html?)'/;

/**
 * An import of a file TypeScript cannot type is one the bundler builds: the error says which
 * setting of the project's tsconfig.json types it (without a tsconfig the defaults have both).
 */
export function withBundlerHint(diagnostic: TypeDiagnostic, configFile: string | undefined): TypeDiagnostic {
  if (!configFile) return diagnostic;
  const config = path.basename(configFile);
  let hint: string | undefined;
  if (diagnostic.code === MODULE_NOT_FOUND && BUNDLER_BUILT.test(diagnostic.message)) hint = `add "imprint/client" to compilerOptions.types in ${config} to type it.`;
  if (diagnostic.code === JSON_MODULE_NOT_FOUND) hint = `set compilerOptions.resolveJsonModule in ${config} to type it.`;
  return hint ? { ...diagnostic, message: `${diagnostic.message}\nImprint's bundler builds this import: ${hint}` } : diagnostic;
}

/**
 * `templates/Invoice.tsx:12:5 - error TS2322: Type 'string' is not assignable to type 'number'.`,
 * tsc's own layout with the path relative to `cwd`, so a terminal or editor opens the line.
 * The lines of a message chain (the "because" of a nested type) follow, indented.
 */
export function formatTypeDiagnostic(error: TypeDiagnostic, cwd: string): string {
  const where = error.file ? `${path.relative(cwd, error.file) || error.file}${error.line ? `:${error.line}:${error.column}` : ''} - ` : '';
  const [first, ...rest] = error.message.split('\n');
  return [`${where}error TS${error.code}: ${first}`, ...rest.map((line) => `  ${line}`)].join('\n');
}

/**
 * Which templates reach each file through their imports (`imports`: a file to the files its
 * imports resolved to): an error in a shared component is an error of every template that
 * uses it. Files `beyond` (node_modules, Imprint's own) are not followed.
 */
export function templatesByFile(templates: string[], imports: ReadonlyMap<string, ReadonlySet<string>>, beyond: (file: string) => boolean): Map<string, Set<string>> {
  const reachedBy = new Map<string, Set<string>>();
  for (const template of templates) {
    const stack = [template];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const file = stack.pop()!;
      if (seen.has(file) || (file !== template && beyond(file))) continue;
      seen.add(file);
      let owners = reachedBy.get(file);
      if (!owners) reachedBy.set(file, (owners = new Set()));
      owners.add(template);
      stack.push(...(imports.get(file) ?? []));
    }
  }
  return reachedBy;
}
