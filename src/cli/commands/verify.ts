/** `imprint verify file.pdf`: its signatures checked; exit 0 only for a valid signature over the unchanged file. */
import type { Command } from 'commander';
import { ImprintError } from '../../core/errors.js';
import { guideFile } from '../../core/guides.js';

export function registerVerify(program: Command) {
  program
    .command('verify')
    .description("check a PDF's signatures: who signed, when, whether it changed since, and which template made it")
    .argument('<file>', 'the PDF, or "-" for stdin')
    .option('--json', 'the report as JSON on stdout')
    .addHelpText(
      'after',
      [
        '',
        'Exit status: 0 when every signature verifies and the last one covers the whole file; 1 otherwise',
        '(not signed, a digest mismatch, or bytes added after signing).',
        "Trust in the signer's certificate is your trust store's call: `pdfsig -nssdir sql:<db> file.pdf`.",
        '',
        'Examples:',
        '  $ imprint verify contract.pdf',
        '  $ imprint verify invoice.pdf --json | jq .signatures[0].signer.commonName',
        '',
        `Signing: ${guideFile('finishing')} ("Signatures").`,
      ].join('\n'),
    )
    .action(async (file: string, flags: { json?: boolean }) => {
      const [{ readBinaryInput }, { verifyPdf }, { printVerifyReport }] = await Promise.all([import('../io/read-input.js'), import('../../core/pdf/sign/verify-pdf.js'), import('../ui/verify-report.js')]);
      const name = file === '-' ? 'stdin' : file;
      const report = await verifyPdf(await readBinaryInput(file, 'PDF'), name);
      if (flags.json) process.stdout.write(`${JSON.stringify({ file: name, ...report }, null, 2)}\n`);
      else printVerifyReport(name, report);
      if (!report.valid || !report.unchanged) {
        // The report above says why; the error sets the exit code.
        const why = report.signatures.length === 0 ? 'is not signed' : report.valid ? 'changed after it was signed' : 'has a signature that does not verify';
        throw new ImprintError('INVALID_INPUT', `${name} ${why}.`);
      }
    });
}
