/**
 * `imprint check`'s and `imprint publish`'s type check: what `tsc --noEmit` with the project's
 * tsconfig would say about each template and the files it imports. The bundler strips types
 * without reading them, so without this a template with type errors renders and publishes.
 *
 * One TypeScript program per project (its compiler, its tsconfig) for all the templates given:
 * most of a program's cost is parsing the standard library and React's types, paid once, not
 * once per template. Only the templates and what they import are checked, not the rest of the
 * tsconfig's files; the tsconfig's declaration files (global types) are part of every program.
 *
 * Module resolution is TypeScript's, from the project. `imprint`, `imprint/react`,
 * `imprint/einvoice` and `imprint/client` (imported, or named in `types`) that the project
 * cannot resolve (imprint not installed there) resolve to the running Imprint's declarations,
 * as the bundler builds with the running Imprint's components, and `@htmldocs/react` to
 * Imprint's htmldocs components, which the bundler gives an htmldocs template. React's types have no such fallback (Imprint ships React,
 * not its types): a project without them is reported as not checked, with the command that
 * installs them, instead of an error on every JSX line.
 */
import path from 'node:path';
import type * as TS from 'typescript';
import { locateTemplate } from '../bundle/find-project.js';
import { bundlerProvided, createCheckingHost } from './checking-host.js';
import { compilerFor, type Compiler } from './compiler.js';
import { defaultOptions, programSetup, type ConfigCache, type ProgramSetup } from './program-options.js';
import { templatesByFile, toTypeDiagnostic, withBundlerHint, type TypeDiagnostic } from './type-diagnostics.js';

export interface TypecheckDeps {
  /** The running Imprint's package folder: its declarations for `imprint/*`. */
  imprintRoot: string;
  /** Imprint's own TypeScript, for a project without one. */
  ownTypescript: () => typeof TS;
}

export interface TemplateTypes {
  file: string;
  /** Errors in the template and in the files it imports (and in the project's settings); empty when it type-checks. */
  errors: TypeDiagnostic[];
  /** Why it was not checked, when it was not. */
  skipped?: string;
}

export interface ProjectTypecheck {
  projectDir: string;
  /** The tsconfig.json used; undefined when the project has none and the defaults were used. */
  configFile?: string;
  typescript: { version: string; from: Compiler['from']; note?: string };
  templates: string[];
  skipped?: string;
}

export interface TypecheckReport {
  /** One per template given, in the same order. */
  templates: TemplateTypes[];
  projects: ProjectTypecheck[];
}

interface Group {
  compiler: Compiler;
  projectDir: string;
  setup: ProgramSetup;
  templates: string[];
}

/** The module whose types give JSX its meaning under these options: React's unless the tsconfig names another. */
function jsxTypesModule(ts: typeof TS, options: TS.CompilerOptions): string {
  const automatic = options.jsx === ts.JsxEmit.ReactJSX || options.jsx === ts.JsxEmit.ReactJSXDev;
  return automatic ? `${options.jsxImportSource ?? 'react'}/jsx-runtime` : 'react';
}

const DECLARATIONS_OR_SOURCE = /\.(d\.[cm]?ts|[cm]?tsx?)$/;

const inside = (dir: string, file: string) => {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

function groupTemplates(files: string[], deps: TypecheckDeps): Group[] {
  const groups = new Map<string, Group>();
  const compilers = new Map<string, Compiler>();
  const configs: ConfigCache = new Map();
  for (const file of files) {
    const { projectDir } = locateTemplate(file);
    let compiler = compilers.get(projectDir);
    if (!compiler) compilers.set(projectDir, (compiler = compilerFor(projectDir, deps.ownTypescript)));
    const setup = programSetup(compiler.ts, file, defaultOptions(compiler.ts), configs);
    const key = `${projectDir}\0${setup.configFile ?? ''}`;
    const group = groups.get(key);
    if (group) group.templates.push(file);
    else groups.set(key, { compiler, projectDir, setup, templates: [file] });
  }
  return [...groups.values()];
}

function checkGroup(group: Group, deps: TypecheckDeps): { errors: Map<string, TypeDiagnostic[]>; skipped?: string } {
  const { ts } = group.compiler;
  const { options, configFile } = group.setup;
  const fallback = bundlerProvided(deps.imprintRoot);
  const { host, cache, imports } = createCheckingHost(ts, options, fallback, { imprintRoot: deps.imprintRoot, projectDir: group.projectDir });

  const jsx = jsxTypesModule(ts, options);
  const jsxTypes = ts.resolveModuleName(jsx, group.templates[0], options, host, cache).resolvedModule;
  if (!jsxTypes || !DECLARATIONS_OR_SOURCE.test(jsxTypes.resolvedFileName)) {
    return {
      errors: new Map(),
      skipped: `the types of \`${jsx}\` (React's, for JSX) are not installed in ${group.projectDir}: run \`npm install\` there, or \`npm install --save-dev @types/react\``,
    };
  }

  const ownDeclarations = configFile ? [] : [fallback['imprint/client']];
  const program = ts.createProgram({ rootNames: [...group.templates, ...group.setup.declarationFiles, ...ownDeclarations], options, host });
  // Not the template's to fix: installed packages, and Imprint's own files.
  const beyond = (file: string) => file.split(path.sep).includes('node_modules') || inside(path.join(deps.imprintRoot, 'src'), file) || inside(path.join(deps.imprintRoot, 'dist'), file) || ownDeclarations.includes(file);
  const reachedBy = templatesByFile(group.templates, imports, beyond);

  const errors = new Map<string, TypeDiagnostic[]>(group.templates.map((template) => [template, []]));
  const report = (diagnostics: readonly TS.Diagnostic[], owners: Iterable<string>) => {
    for (const diagnostic of diagnostics) {
      if (diagnostic.category !== ts.DiagnosticCategory.Error) continue;
      const described = withBundlerHint(toTypeDiagnostic(ts, diagnostic), configFile);
      for (const owner of owners) errors.get(owner)!.push(described);
    }
  };
  // About the whole program (its settings, a global declaration): every template's.
  report([...group.setup.configErrors, ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()], group.templates);
  for (const file of group.setup.declarationFiles) {
    const source = program.getSourceFile(file);
    if (source && !reachedBy.has(file) && !beyond(file)) report([...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)], group.templates);
  }
  for (const [file, owners] of reachedBy) {
    const source = program.getSourceFile(file);
    if (source) report([...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)], owners);
  }
  return { errors };
}

const JAVASCRIPT = /\.[cm]?jsx?$/;

/** A JavaScript template has types to check only where the tsconfig asks for it, as `tsc` would. */
const checksJavaScript = (options: TS.CompilerOptions) => options.allowJs === true && options.checkJs === true;

export function typecheckTemplates(files: string[], deps: TypecheckDeps): TypecheckReport {
  const absolute = files.map((file) => path.resolve(file));
  const byTemplate = new Map<string, TemplateTypes>();
  const projects: ProjectTypecheck[] = [];
  for (const all of groupTemplates(absolute, deps)) {
    const untyped = all.templates.filter((file) => JAVASCRIPT.test(file) && !checksJavaScript(all.setup.options));
    for (const file of untyped) byTemplate.set(file, { file, errors: [], skipped: 'a JavaScript template: tsconfig.json\'s allowJs and checkJs would check it' });
    const group = { ...all, templates: all.templates.filter((file) => !untyped.includes(file)) };
    if (group.templates.length === 0) continue;
    const { errors, skipped } = checkGroup(group, deps);
    for (const template of group.templates) byTemplate.set(template, { file: template, errors: errors.get(template) ?? [], skipped });
    const { version, from, note } = group.compiler;
    projects.push({ projectDir: group.projectDir, configFile: group.setup.configFile, typescript: { version, from, note }, templates: group.templates, skipped });
  }
  return { templates: absolute.map((file) => byTemplate.get(file)!), projects };
}
