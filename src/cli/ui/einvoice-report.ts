/** `imprint check --einvoice`'s report: each broken rule by id with its message, then a verdict, on stdout. */
import chalk from 'chalk';
import type { FileValidationReport } from '../../core/einvoice/validate/validate-file.js';

export function printEInvoiceReport(name: string, report: FileValidationReport): void {
  const what = `${report.document.syntax.toUpperCase()}${report.document.profile ? `, profile ${report.document.profile}` : ''}${report.attachment ? `, embedded as ${report.attachment}` : ''}`;
  process.stdout.write(`${name} ${chalk.dim(`(${what})`)}\n`);
  for (const step of report.steps) {
    const findings = report.findings.filter((finding) => finding.step === step);
    const failed = findings.some((finding) => finding.severity === 'fatal' || finding.severity === 'error');
    process.stdout.write(`${failed ? chalk.red('✖') : chalk.green('✔')} ${step}\n`);
    for (const finding of findings) {
      const mark = finding.severity === 'fatal' || finding.severity === 'error' ? chalk.red(finding.severity) : chalk.yellow(finding.severity);
      process.stdout.write(`    ${mark} [${finding.rule}] ${finding.message}\n`);
    }
  }
  // Not a pass: these never ran (the schema refused the document first).
  for (const step of report.skipped) process.stdout.write(`${chalk.dim('-')} ${step} ${chalk.dim('(not run: the schema refused the document)')}\n`);
  const broken = report.findings.filter((finding) => finding.severity === 'fatal' || finding.severity === 'error').length;
  process.stdout.write(report.valid ? chalk.green('\nValid: no fatal rule is broken.\n') : chalk.red(`\nInvalid: ${broken} ${broken === 1 ? 'rule' : 'rules'} broken.\n`));
}
