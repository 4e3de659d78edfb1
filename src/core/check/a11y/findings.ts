/**
 * An accessibility finding as `imprint check --a11y` and the dev studio report it: what is
 * wrong, how much it matters (axe-core's four impacts, which the PDF-side checks use too), the
 * rule that found it and where the author fixes it.
 */
import path from 'node:path';
import { ImprintError } from '../../errors.js';

export const IMPACTS = ['minor', 'moderate', 'serious', 'critical'] as const;
export type Impact = (typeof IMPACTS)[number];

/** The level `check --a11y` fails at unless told otherwise: what blocks a reader, not what inconveniences one. */
export const DEFAULT_A11Y_LEVEL: Impact = 'serious';

export interface A11yFinding {
  /** axe-core's rule id (`image-alt`), or a PDF check's (`pdf-tagged`). */
  rule: string;
  impact: Impact;
  /** One sentence: what is wrong and what to do about it. */
  message: string;
  /** Where the author fixes it: the file relative to the template's project, 1-based line and column. */
  at?: { file: string; line: number; column: number };
  /** The element as the page had it (`<img src="/static/logo.png">`), for a finding in the page. */
  element?: string;
  /** The page or the printed PDF. */
  source: 'page' | 'pdf';
  /** The rule's explanation (axe's Deque University page). */
  helpUrl?: string;
}

export function parseImpact(value: string): Impact {
  const impact = IMPACTS.find((name) => name === value.toLowerCase());
  if (!impact) throw new ImprintError('USAGE', `--a11y-level takes ${IMPACTS.join(', ')} (the impacts axe-core gives); got "${value}".`);
  return impact;
}

export const atLeast = (impact: Impact, level: Impact) => IMPACTS.indexOf(impact) >= IMPACTS.indexOf(level);

/** Most severe first, then by position in the file. */
export function sortFindings(findings: A11yFinding[]): A11yFinding[] {
  return [...findings].sort(
    (a, b) =>
      IMPACTS.indexOf(b.impact) - IMPACTS.indexOf(a.impact) ||
      (a.at?.file ?? '').localeCompare(b.at?.file ?? '') ||
      (a.at?.line ?? 0) - (b.at?.line ?? 0) ||
      (a.at?.column ?? 0) - (b.at?.column ?? 0),
  );
}

/** The findings with each position's file absolute, resolved against the template's project (where its positions are relative to). */
export const resolveFindings = (findings: A11yFinding[], projectDir: string): A11yFinding[] =>
  findings.map((finding) => (finding.at ? { ...finding, at: { ...finding.at, file: path.resolve(projectDir, finding.at.file) } } : finding));
