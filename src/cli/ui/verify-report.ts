/** `imprint verify`'s report on stdout: each signature (who, when, what it covers), then a verdict. */
import chalk from 'chalk';
import type { SignatureReport, VerifyReport } from '../../core/pdf/sign/verify-pdf.js';

const mark = (ok: boolean) => (ok ? chalk.green('✔') : chalk.red('✖'));

function signatureLines(signature: SignatureReport, index: number): string[] {
  const who = signature.signer ? `${signature.signer.commonName ?? signature.signer.subject} ${chalk.dim(`(issued by ${signature.signer.issuer}; serial ${signature.signer.serialNumber})`)}` : chalk.red('no signer certificate');
  const lines = [`Signature ${index + 1}${signature.field ? ` (${signature.field})` : ''}: ${signature.subFilter ?? 'no SubFilter'}${signature.level ? `, PAdES ${signature.level}` : ''}`, `  signer: ${who}`];
  if (signature.timestamp) lines.push(`  time: ${signature.timestamp.time} ${mark(signature.timestamp.valid)} time-stamped by ${signature.timestamp.authority ?? 'an unnamed authority'}`);
  else lines.push(`  time: ${signature.claimedTime ?? 'not given'} ${chalk.dim('(claimed by the signer, no time-stamp)')}`);
  if (signature.imprint) {
    const template = signature.imprint.template ? `template ${signature.imprint.template}${signature.imprint.version === undefined ? '' : ` version ${signature.imprint.version}`}` : 'no template named';
    lines.push(`  made by: ${signature.imprint.software ?? 'Imprint'}, ${template}`);
  }
  if (signature.problem) lines.push(`  ${mark(false)} ${signature.problem}`);
  else {
    lines.push(`  ${mark(signature.digestMatches)} ${signature.digestMatches ? 'the signed bytes are unchanged' : 'the signed bytes changed (digest mismatch)'}`);
    lines.push(`  ${mark(signature.signatureValid)} ${signature.signatureValid ? "the signature verifies with the signer's key" : 'the signature does not verify'}`);
  }
  lines.push(`  ${mark(signature.coversWholeFile)} ${signature.coversWholeFile ? 'covers the whole file' : `${signature.bytesAfter} bytes were added after it`}`);
  return lines;
}

export function printVerifyReport(name: string, report: VerifyReport): void {
  const lines = [name, ...report.signatures.flatMap(signatureLines)];
  if (report.signatures.length === 0) lines.push(chalk.red('✖ not signed'));
  else if (report.valid && report.unchanged) lines.push(chalk.green('\nValid: signed, and unchanged since. (Whether you trust the signer\'s certificate is for your trust store: pdfsig, Acrobat.)'));
  else lines.push(chalk.red(`\nNot valid: ${report.valid ? 'the document changed after it was signed' : 'a signature does not check out'}.`));
  process.stdout.write(`${lines.join('\n')}\n`);
}
