/**
 * `imprint check --snapshot`'s work on one checked template: each case (its PreviewProps, each
 * props fixture) rendered and finished by the steps a deterministic render with default options
 * takes (finish-print.ts: the template's metadata, fields and stamp included; the date from the
 * template's content, never the clock or SOURCE_DATE_EPOCH, so a snapshot depends on the
 * template alone), then compared with its snapshot.
 */
import fs from 'node:fs';
import { ImprintError } from '../errors.js';
import { artifactDate } from '../pdf/input-dates.js';
import { finishPrint } from '../finish-print.js';
import { parseProps } from '../render-request.js';
import { propsErrors } from '../schema/validate-props.js';
import { describeError, diagnosticProblems, type CheckDeps, type CheckResult } from '../check/check-template.js';
import { renderDiagnosed } from '../check/render-diagnosed.js';
import { snapshotCases } from './snapshot-cases.js';
import { checkSnapshot, type SnapshotOptions, type SnapshotOutcome } from './snapshot-store.js';

export { tidyDiffFolder as tidySnapshotFolder } from './snapshot-store.js';

export interface TemplateSnapshots {
  outcomes: SnapshotOutcome[];
  /** Fixtures that could not be read or rendered, and what their renders met (console errors...). */
  problems: string[];
}

function readFixture(file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ImprintError('INVALID_INPUT', `${file} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return parseProps(value);
  } catch (error) {
    throw new ImprintError('INVALID_INPUT', `${file}: ${(error as Error).message}`);
  }
}

export async function snapshotTemplate(checked: CheckResult, deps: CheckDeps, options: SnapshotOptions): Promise<TemplateSnapshots> {
  const { artifact } = checked;
  if (!artifact || !checked.printed) return { outcomes: [], problems: [] }; // it did not render: the check says why
  const date = artifactDate(artifact);
  const outcomes: SnapshotOutcome[] = [];
  const problems: string[] = [];
  for (const snapshotCase of snapshotCases(checked.file)) {
    const what = snapshotCase.propsFile ? `fixture ${snapshotCase.name}` : `snapshot ${snapshotCase.name}`;
    let pdf: Buffer;
    try {
      let printed = checked.printed;
      if (snapshotCase.propsFile) {
        const props = readFixture(snapshotCase.propsFile);
        if (checked.schema?.kind === 'schema') problems.push(...propsErrors(checked.schema.schema, props).map((text) => `${what}: ${text}`));
        const rendered = await renderDiagnosed(await deps.browser(), artifact, props, {}, deps.timeoutMs);
        problems.push(...diagnosticProblems(rendered.diagnostics).map((text) => `${what}: ${text}`));
        printed = rendered;
      }
      pdf = await finishPrint(printed, {}, { date });
    } catch (error) {
      // The template's or the fixture's fault (a field not shown, a stamp static it cannot take) is a problem; the machine's (no browser) is thrown.
      problems.push(`${what}: ${describeError(error)}`);
      continue;
    }
    outcomes.push(await checkSnapshot(snapshotCase.name, pdf, options));
  }
  return { outcomes, problems };
}
