/**
 * `imprint check`'s verdict on one template, for CI before publishing: it builds, its
 * PreviewProps render, they match its props type, and the page met no console error, failed
 * request or failed font on the way. Problems with the template are collected; problems with
 * the machine (no browser) are thrown, since no template could pass.
 */
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import type { Artifact } from '../artifact.js';
import { bundleTemplate } from '../bundle/bundle-template.js';
import { locateTemplate } from '../bundle/find-project.js';
import { isImprintError } from '../errors.js';
import { derivePropsSchema, type DerivedSchema } from '../schema/derive-props-schema.js';
import { propsErrors } from '../schema/validate-props.js';
import type { Printed } from '../finish-print.js';
import { renderDiagnosed, type RenderDiagnostics } from './render-diagnosed.js';
import { A11Y_PRINT, inspectAccessibility } from './a11y/check-a11y.js';
import { resolveFindings, type A11yFinding } from './a11y/findings.js';

export interface CheckDeps {
  browser: () => Promise<Browser>;
  timeoutMs: number;
}

export interface CheckResult {
  file: string;
  problems: string[];
  /** How the props were checked: against the derived schema, or why there is none. */
  schema: DerivedSchema | undefined;
  /** The built template and the print of its PreviewProps (as Chromium printed it, with what the page reported), when it rendered: what a snapshot needs. */
  artifact?: Artifact;
  printed?: Printed & { pdf: Buffer };
  /** With `a11y`: the accessibility findings, each file an absolute path. */
  a11y?: A11yFinding[];
}

export interface CheckOptions {
  /** Also run the accessibility check (check-a11y.ts) on a tagged print of the PreviewProps. */
  a11y?: boolean;
}

/** Errors that say nothing about the template: the check cannot run at all. */
const MACHINE_ERRORS = new Set(['BROWSER_NOT_FOUND', 'BROWSER_FAILED', 'INTERNAL']);

/** A template's failure as the report shows it; anything that is not the template's fault is thrown. */
export function describeError(error: unknown): string {
  if (!isImprintError(error) || MACHINE_ERRORS.has(error.code)) throw error;
  if (!error.details) return error.message;
  // A build error's message repeats the first line of its details: keep the code frame only.
  const [first, ...rest] = error.details.split('\n');
  const details = error.message.includes(first.trim()) ? rest.join('\n') : error.details;
  return details.trim() ? `${error.message}\n${details}` : error.message;
}

export function diagnosticProblems(diagnostics: RenderDiagnostics): string[] {
  return [
    ...diagnostics.consoleErrors.map((text) => `console error: ${text}`),
    ...diagnostics.failedRequests.map((text) => `failed request: ${text}`),
    ...diagnostics.failedFonts.map((text) => `font failed to load: ${text}`),
    ...(diagnostics.previewPropsError ? [`PreviewProps are not JSON (${diagnostics.previewPropsError}): props sent to a render never look like them`] : []),
  ];
}

export async function checkTemplate(file: string, deps: CheckDeps, options: CheckOptions = {}): Promise<CheckResult> {
  let bundled;
  try {
    bundled = await bundleTemplate(file, { sourcePositions: options.a11y === true });
  } catch (error) {
    return { file, problems: [describeError(error)], schema: undefined };
  }
  const schema = derivePropsSchema(file);
  const projectDir = locateTemplate(file).projectDir;
  const a11y = options.a11y ? inspectAccessibility(bundled.source, path.relative(projectDir, bundled.file)) : undefined;

  let rendered;
  try {
    rendered = await renderDiagnosed(await deps.browser(), bundled.artifact, undefined, a11y ? A11Y_PRINT : {}, deps.timeoutMs, { beforePrint: a11y?.inPage });
  } catch (error) {
    // With no props given, the page refuses only for want of usable PreviewProps.
    const problem = isImprintError(error) && error.code === 'INVALID_INPUT'
      ? 'It has no PreviewProps object to render: add `Template.PreviewProps = { ... }` with sample props.'
      : describeError(error);
    return { file, problems: [problem], schema };
  }
  const problems = diagnosticProblems(rendered.diagnostics);
  if (schema.kind === 'schema') {
    problems.push(...propsErrors(schema.schema, rendered.diagnostics.previewProps).map((text) => `PreviewProps: ${text}`));
  }
  const findings = a11y && resolveFindings(await a11y.findings(rendered.pdf, rendered.metadata, rendered.facts), projectDir);
  const { pdf, metadata, facts, fields, stamp, tagged } = rendered;
  return { file, problems, schema, artifact: bundled.artifact, printed: { pdf, metadata, facts, fields, stamp, tagged }, ...(findings ? { a11y: findings } : {}) };
}
