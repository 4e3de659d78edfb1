/** `imprint check`'s report: one line per template, its problems under it, on stdout. */
import path from 'node:path';
import chalk from 'chalk';
import type { CheckResult } from '../../core/check/check-template.js';

const indent = (text: string) => text.replace(/^/gm, '    ');

/** How the template's types fared: checked without errors, with errors, not checked (and told why on stderr), or --no-typecheck. */
export type TypesVerdict = 'passed' | 'failed' | 'skipped' | 'off';

const TYPES_NOTE: Record<TypesVerdict, string> = { passed: ', no type errors', failed: '', skipped: ', types not checked', off: '' };

/** `a11yFailed`: accessibility findings at the failing level, listed after this line (a11y-report.ts). */
export function printCheckResult(result: CheckResult, elapsedMs: number, types: TypesVerdict, a11yFailed = false): void {
  const name = path.relative(process.cwd(), result.file) || result.file;
  const time = chalk.dim(`(${(elapsedMs / 1000).toFixed(1)} s)`);
  if (result.problems.length === 0 && !a11yFailed) {
    const props = result.schema?.kind === 'schema' ? 'PreviewProps match the props type' : 'no props type to check';
    process.stdout.write(`${chalk.green('✔')} ${name} ${chalk.dim(`rendered, ${props}${TYPES_NOTE[types]}`)} ${time}\n`);
    return;
  }
  process.stdout.write(`${chalk.red('✖')} ${name} ${time}\n`);
  for (const problem of result.problems) process.stdout.write(`${indent(`- ${problem}`).replace(/^ {4}- /, '  - ')}\n`);
}

export function printCheckSummary(passed: number, failed: number): void {
  const total = passed + failed;
  const text = `${total} ${total === 1 ? 'template' : 'templates'} checked: ${passed} passed, ${failed} failed`;
  process.stdout.write(`\n${failed > 0 ? chalk.red(text) : chalk.green(text)}\n`);
}
