/** `imprint doctor`'s report: one line per check, the fix under each one that is not ok. */
import chalk from 'chalk';
import type { CheckResult, CheckStatus } from '../doctor/checks.js';

const MARKS: Record<CheckStatus, string> = { ok: chalk.green('✔'), warn: chalk.yellow('⚠'), fail: chalk.red('✖'), info: chalk.cyan('ℹ') };

export function formatDoctorReport(header: string, checks: readonly CheckResult[]): string {
  const width = Math.max(...checks.map((check) => check.title.length));
  const lines = [chalk.dim(header), ''];
  for (const check of checks) {
    lines.push(`${MARKS[check.status]} ${check.title.padEnd(width)}  ${check.detail}`);
    if (check.fix && (check.status === 'fail' || check.status === 'warn')) lines.push(`  ${' '.repeat(width)}  ${chalk.dim('fix:')} ${check.fix}`);
  }
  return `${lines.join('\n')}\n`;
}
