/** `imprint check [files...]`: type-check each template, build it and render its PreviewProps, for CI before publishing. */
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { atLeast, type Impact } from '../../core/check/a11y/findings.js';
import { ImprintError } from '../../core/errors.js';
import { A11Y_HELP, addA11yOptions } from '../a11y-options.js';
import { findingJson, printA11yFindings } from '../ui/a11y-report.js';
import { DEFAULT_RENDER_TIMEOUT_MS } from '../../core/render/deadline.js';
import type { CliContext } from '../context.js';
import { resolveTemplateFiles } from '../io/template-files.js';
import { runTypecheck, typeErrorJson, typeErrorLines } from '../typecheck-step.js';
import { printCheckResult, printCheckSummary, type TypesVerdict } from '../ui/check-report.js';
import { printSnapshotOutcome } from '../ui/snapshot-report.js';

/** Pages are compared at this resolution: a word's change is dozens of pixels, a file stays small. */
const SNAPSHOT_DPI = 96;

interface CheckFlags {
  einvoice?: string;
  snapshot?: string;
  update?: boolean;
  tolerance: number;
  json?: boolean;
  /** False with --no-typecheck. */
  typecheck: boolean;
  a11y?: boolean;
  a11yLevel: Impact;
}

function percent(value: string): number {
  const number = Number(value.replace(/%$/, ''));
  if (!Number.isFinite(number) || number < 0 || number > 100) throw new InvalidArgumentError('expected a percentage from 0 to 100, e.g. 0.1');
  return number;
}

export function registerCheck(program: Command, context: () => CliContext) {
  const command = program
    .command('check')
    .description('type-check each template, build it and render its PreviewProps; fail on type errors, build or render errors, console errors, failed requests or fonts, and PreviewProps that do not match the props type')
    .argument('[files...]', 'template files or folders of them (default: templates/)')
    .option('--snapshot <dir>', 'also compare each PreviewProps render, and each <Name>.<case>.props.json fixture\'s, with the PDFs recorded in <dir>: same bytes, else same text and pixels per page')
    .option('--update', 'with --snapshot: record the renders as the snapshots')
    .option('--tolerance <percent>', 'with --snapshot: the share of a page\'s pixels that may differ (anti-aliasing noise)', percent, 0)
    .option('--json', 'print the results as one JSON document (for CI tools)')
    .option('--no-typecheck', 'skip the type check (what `tsc --noEmit` with the project\'s tsconfig says about each template and the files it imports)');
  addA11yOptions(command)
    .option('--einvoice <file|->', 'instead: validate an e-invoice (a Factur-X/ZUGFeRD/XRechnung PDF, or CII/UBL XML) with the official EN 16931, Factur-X, XRechnung and Peppol rules; needs xmllint and Java with Saxon-HE')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ imprint check',
        '  $ imprint check templates/Invoice.tsx templates/Report.tsx',
        '  $ imprint check --snapshot snapshots --update   # record, then commit snapshots/',
        '  $ imprint check --snapshot snapshots            # in CI: exit 1 when a document changed',
        '  $ imprint check --no-typecheck                  # build and render only',
        '  $ imprint check --a11y templates/Invoice.tsx     # axe-core and the PDF\'s tags, at the TSX lines',
        '  $ imprint check --a11y --a11y-level moderate     # fail on moderate findings too (a skipped heading level)',
        '  $ imprint check --einvoice invoice.pdf          # the embedded XML against the official rules',
        '  $ imprint check --einvoice xrechnung.xml --json',
        '',
        'The type check uses the project\'s TypeScript (else Imprint\'s) and its tsconfig.json (else',
        'strict defaults), one program for all the templates; a type error fails the template with',
        'file:line:col, the TS code and its message. A project without React\'s types installed',
        '(run npm install) is not type-checked, with a warning.',
        '',
        'A failed snapshot writes the actual PDF and, per changed page, expected/actual/diff PNGs',
        'to <dir>/__diff__/<name>/. See docs/determinism.md.',
        A11Y_HELP,
      ].join('\n'),
    )
    .action(async (args: string[], flags: CheckFlags) => {
      if (flags.einvoice !== undefined) return checkEInvoice(args, flags.einvoice, flags.json === true);
      if (flags.a11yLevel !== 'serious' && !flags.a11y) throw new ImprintError('USAGE', '--a11y-level goes with --a11y.');
      if (flags.update && !flags.snapshot) throw new ImprintError('USAGE', '--update goes with --snapshot <dir>.');
      const files = resolveTemplateFiles(args, 'templates');
      const [{ checkTemplate }, { createBrowserProvider }, snapshots] = await Promise.all([
        import('../../core/check/check-template.js'),
        import('../../core/render/browser-provider.js'),
        // The PDF and image libraries load only for a snapshot check.
        flags.snapshot ? import('../../core/snapshot/snapshot-template.js') : undefined,
      ]);
      // One TypeScript program for all the templates, before any renders: its cost is paid once.
      const types = flags.typecheck ? await runTypecheck(files) : undefined;
      const snapshotOptions = flags.snapshot ? { dir: path.resolve(flags.snapshot), update: flags.update === true, tolerancePercent: flags.tolerance, dpi: SNAPSHOT_DPI } : undefined;
      const report: object[] = [];
      const settings = context().browserSettings;
      const browsers = createBrowserProvider({ search: settings.search, runningAsRoot: settings.runningAsRoot, env: settings.env });
      let failed = 0;
      try {
        for (const [index, file] of files.entries()) {
          const started = performance.now();
          const deps = { browser: () => browsers.browser(), timeoutMs: DEFAULT_RENDER_TIMEOUT_MS };
          const result = await checkTemplate(file, deps, { a11y: flags.a11y === true });
          const snapshot = snapshotOptions && snapshots ? await snapshots.snapshotTemplate(result, deps, snapshotOptions) : undefined;
          const typed = types?.templates[index];
          const typeErrors = typed?.errors ?? [];
          const verdict: TypesVerdict = !typed ? 'off' : typed.skipped ? 'skipped' : typeErrors.length > 0 ? 'failed' : 'passed';
          const problems = [...typeErrorLines(typeErrors), ...result.problems, ...(snapshot?.problems ?? [])];
          const outcomes = snapshot?.outcomes ?? [];
          const snapshotFailed = outcomes.some((outcome) => outcome.status === 'failed' || outcome.status === 'missing');
          const findings = result.a11y ?? [];
          const a11yFailed = findings.some((finding) => atLeast(finding.impact, flags.a11yLevel));
          if (problems.length > 0 || snapshotFailed || a11yFailed) failed++;
          if (flags.json) {
            const typecheck = { status: verdict, errors: typeErrors.map(typeErrorJson), ...(typed?.skipped ? { reason: typed.skipped } : {}) };
            const a11y = result.a11y ? { a11y: { level: flags.a11yLevel, passed: !a11yFailed, findings: findings.map(findingJson) } } : {};
            report.push({ file: path.relative(process.cwd(), file) || file, passed: problems.length === 0 && !snapshotFailed && !a11yFailed, problems, typecheck, snapshots: outcomes, ...a11y });
          } else {
            printCheckResult({ ...result, problems }, performance.now() - started, verdict, a11yFailed);
            outcomes.forEach(printSnapshotOutcome);
            if (result.a11y) printA11yFindings(findings, flags.a11yLevel);
          }
        }
        if (snapshotOptions && snapshots) await snapshots.tidySnapshotFolder(snapshotOptions.dir);
      } finally {
        await browsers.close();
      }
      if (flags.json) process.stdout.write(`${JSON.stringify({ passed: files.length - failed, failed, templates: report }, null, 2)}\n`);
      else printCheckSummary(files.length - failed, failed);
      if (failed > 0) {
        // The report above names each problem; the error only sets the exit code and says so.
        throw new ImprintError('INVALID_INPUT', `${failed} of ${files.length} ${files.length === 1 ? 'template' : 'templates'} failed the check.`);
      }
    });
}

/** `check --einvoice`: one file validated with the official artefacts; exit 1 when a fatal rule is broken. */
async function checkEInvoice(args: string[], source: string, json: boolean): Promise<void> {
  if (args.length > 0) throw new ImprintError('USAGE', `--einvoice checks one file; drop the template arguments (${args.join(' ')}), or run them as a separate \`imprint check\`.`);
  const [{ findValidationTools }, { validateEInvoiceFile }, { readBinaryInput }, { printEInvoiceReport }] = await Promise.all([
    import('../einvoice-tools.js'),
    import('../../core/einvoice/validate/validate-file.js'),
    import('../io/read-input.js'),
    import('../ui/einvoice-report.js'),
  ]);
  const tools = findValidationTools(process.env);
  const bytes = await readBinaryInput(source, 'e-invoice');
  const report = await validateEInvoiceFile(bytes, tools);
  const name = source === '-' ? 'stdin' : source;
  if (json) process.stdout.write(`${JSON.stringify({ file: name, ...report }, null, 2)}\n`);
  else printEInvoiceReport(name, report);
  if (!report.valid) {
    const broken = [...new Set(report.findings.filter((f) => f.severity === 'fatal' || f.severity === 'error').map((f) => f.rule))];
    throw new ImprintError('INVALID_INPUT', `${name} is not a valid e-invoice: ${broken.join(', ')} broken.`);
  }
}
