/**
 * axe-core run in the template's page in Chromium, after the render and before the print:
 * the page as the PDF will show it. axe-core is read from Imprint's installed dependencies and
 * evaluated in the page over CDP (so no Content-Security-Policy of a page stops it); the
 * template itself only ever runs there.
 *
 * The page is looked at with print media, as the PDF is: the pool's helper hides the document
 * for screen media (template-page.ts), and print styles are what the reader gets. The
 * document's language is the one the PDF is labelled with (the template's `metadata.language`,
 * written as the PDF's /Lang by finish-pdf.ts), so it is put on <html> for axe to judge.
 *
 * Rules about navigating a web site (landmarks, skip links, scrolling regions, viewport) or
 * touching it on a screen (target sizes) say nothing about a printed document and are not run.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'puppeteer-core';
import { ImprintError } from '../../errors.js';
import { IMPACTS, type Impact } from './findings.js';

/** Where a node's JSX was written, as the page reports it (src/runtime/source-positions-jsx.ts). */
export interface WrittenAt {
  file: string;
  line: number;
  column: number;
}

/** What axe reports per rule, with each node's position chain from the page (nearest JSX first). */
export interface AxeViolation {
  id: string;
  impact: Impact;
  help: string;
  helpUrl: string;
  nodes: { html: string; target: string; failureSummary: string; writtenAt: WrittenAt[] }[];
}

/** Rules for web pages a reader navigates or touches on a screen, not for printed documents. */
const WEB_ONLY_RULES = [
  'bypass',
  'region',
  'skip-link',
  'scrollable-region-focusable',
  'meta-viewport',
  'meta-viewport-large',
  'landmark-banner-is-top-level',
  'landmark-complementary-is-top-level',
  'landmark-contentinfo-is-top-level',
  'landmark-main-is-top-level',
  'landmark-no-duplicate-banner',
  'landmark-no-duplicate-contentinfo',
  'landmark-no-duplicate-main',
  'landmark-one-main',
  'landmark-unique',
  // Pointer targets measured in the screen's CSS px (WCAG 2.2 2.5.8): a PDF has none, its viewer
  // zooms it, and a printed list of links (a table of contents at 10 pt) is as dense as its type.
  'target-size',
];

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

let axeSource: string | undefined;
/** axe-core's browser build, from the package's own dependencies (installed with it). */
function readAxeSource(): string {
  if (axeSource === undefined) {
    const require = createRequire(import.meta.url);
    let file: string;
    try {
      file = require.resolve('axe-core/axe.min.js');
    } catch (error) {
      throw new ImprintError('INTERNAL', 'axe-core is missing from Imprint\'s installation (it is one of its dependencies): reinstall imprint.', { cause: error });
    }
    axeSource = fs.readFileSync(file, 'utf8');
  }
  return axeSource;
}

/**
 * Runs in the page, as source text (a function handed to page.evaluate would be serialised
 * after TypeScript's transform, which may add helpers the page lacks).
 */
const RUN_AXE = `async (options, language) => {
  const html = document.documentElement;
  const hadLang = html.getAttribute('lang');
  if (language) html.setAttribute('lang', language);
  try {
    const result = await window.axe.run(document, options);
    const writtenAt = window.__imprintWrittenAt || (() => []);
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      helpUrl: violation.helpUrl,
      nodes: violation.nodes.map((node) => ({
        html: node.html,
        target: node.target.join(' '),
        failureSummary: node.failureSummary || '',
        writtenAt: node.element ? writtenAt(node.element) : [],
      })),
    }));
  } finally {
    if (hadLang === null) html.removeAttribute('lang');
    else html.setAttribute('lang', hadLang);
  }
}`;

export async function runAxe(page: Page, language: string | undefined): Promise<AxeViolation[]> {
  await page.emulateMediaType('print');
  try {
    const loaded = await page.evaluate(`typeof window.axe === 'object'`);
    if (!loaded) await page.evaluate(readAxeSource());
    const options = {
      runOnly: { type: 'tag', values: AXE_TAGS },
      rules: Object.fromEntries(WEB_ONLY_RULES.map((rule) => [rule, { enabled: false }])),
      elementRef: true,
      resultTypes: ['violations'],
    };
    const violations = (await page.evaluate(`(${RUN_AXE})(${JSON.stringify(options)}, ${JSON.stringify(language ?? null)})`)) as AxeViolation[];
    // axe gives every violation an impact; an unknown one (a future axe) counts as the highest.
    return violations.map((violation) => ({ ...violation, impact: IMPACTS.includes(violation.impact) ? violation.impact : 'critical' }));
  } finally {
    await page.emulateMediaType();
  }
}
