/** `imprint check --a11y`'s findings under a template's line: the TSX position first, for editors and terminals that link it. */
import path from 'node:path';
import chalk from 'chalk';
import { atLeast, type A11yFinding, type Impact } from '../../core/check/a11y/findings.js';

const where = (finding: A11yFinding) => (finding.at ? `${path.relative(process.cwd(), finding.at.file) || finding.at.file}:${finding.at.line}:${finding.at.column}` : finding.source === 'pdf' ? 'PDF' : 'page');

/** One line: `templates/Invoice.tsx:42:7 <img>: Images must have alternative text (image-alt, critical)`. */
export const findingLine = (finding: A11yFinding) => `${where(finding)} ${finding.message} (${finding.rule}, ${finding.impact})`;

export function printA11yFindings(findings: A11yFinding[], level: Impact): void {
  const failing = findings.filter((finding) => atLeast(finding.impact, level));
  const below = findings.length - failing.length;
  for (const finding of findings) {
    const line = `  ${atLeast(finding.impact, level) ? chalk.red('✖') : chalk.yellow('!')} ${findingLine(finding)}`;
    process.stdout.write(`${line}\n`);
  }
  const summary = findings.length === 0 ? 'no accessibility findings' : `${failing.length} accessibility ${failing.length === 1 ? 'finding' : 'findings'} at ${level} or above${below > 0 ? `, ${below} below` : ''}`;
  process.stdout.write(`  ${chalk.dim(summary)}\n`);
}

/** The JSON form: positions relative to the working directory, like the text. */
export const findingJson = (finding: A11yFinding) => ({ ...finding, ...(finding.at ? { at: { ...finding.at, file: path.relative(process.cwd(), finding.at.file) || finding.at.file } } : {}) });
