/**
 * The type check as `imprint check` and `imprint publish` run it: the compiler loaded on first
 * use (it is a second of modules most commands never need), one line on stderr per project
 * saying what checked it, and a warning for a project that could not be checked.
 */
import path from 'node:path';
import { packageRoot } from '../core/package-root.js';
import type { ProjectTypecheck, TypecheckReport } from '../core/typecheck/typecheck-templates.js';
import { formatTypeDiagnostic, type TypeDiagnostic } from '../core/typecheck/type-diagnostics.js';
import { done, warn } from './ui/status.js';

const shown = (file: string) => path.relative(process.cwd(), file) || file;

function describeProject(project: ProjectTypecheck, seconds: string): string {
  const count = `${project.templates.length} ${project.templates.length === 1 ? 'template' : 'templates'}`;
  const { version, from, note } = project.typescript;
  const compiler = `TypeScript ${version} (${from === 'project' ? "the project's" : `Imprint's${note ? `: ${note}` : ''}`})`;
  const settings = project.configFile ? shown(project.configFile) : 'default settings (no tsconfig.json)';
  return `Type-checked ${count} with ${compiler} and ${settings} (${seconds} s)`;
}

export async function runTypecheck(files: string[]): Promise<TypecheckReport> {
  const [{ typecheckTemplates }, { loadTypescript }] = await Promise.all([import('../core/typecheck/typecheck-templates.js'), import('../core/schema/load-lazily.js')]);
  const started = performance.now();
  const report = typecheckTemplates(files, { imprintRoot: packageRoot(), ownTypescript: loadTypescript });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  for (const project of report.projects) {
    if (project.skipped) warn(`Type check skipped: ${project.skipped}.`);
    else done(describeProject(project, seconds));
  }
  return report;
}

/** Each error as the reports print it: `templates/X.tsx:3:7 - error TS2322: ...`. */
export const typeErrorLines = (errors: TypeDiagnostic[]): string[] => errors.map((error) => formatTypeDiagnostic(error, process.cwd()));

/** The JSON form of an error: the path as the text form prints it. */
export const typeErrorJson = (error: TypeDiagnostic) => ({ ...error, file: error.file && shown(error.file) });
