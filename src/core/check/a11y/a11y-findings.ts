/**
 * A template's accessibility findings, from what the page and the PDF said: each axe-core
 * node at the author's JSX that made it (the nearest position in the author's own files;
 * inside an npm package's or `imprint/react`'s component, the author's element that used it),
 * and the document-wide ones (language, title) at the template's `metadata`.
 */
import { isAuthorSource } from '../../render/template-source-map.js';
import type { AxeViolation, WrittenAt } from './axe-page.js';
import type { A11yFinding } from './findings.js';

/** Rules about the document as a whole, fixed in the template's `metadata`, not at an element. */
const METADATA_RULES: Record<string, string> = {
  'html-has-lang': 'The document has no language, so a screen reader cannot tell how to read it: set `language` (e.g. "en-GB") in the template\'s `metadata`.',
  'html-lang-valid': 'The document\'s language is not a valid BCP 47 tag: set `language` in the template\'s `metadata` to one such as "en" or "de-CH".',
  'document-title': 'The document has no title: set `title` in the template\'s `metadata`.',
};

/** Where the template sets its `metadata` (`Invoice.metadata = {`, `static metadata =`), else its first line. */
export function metadataPosition(source: string, file: string): A11yFinding['at'] {
  const lines = source.split('\n');
  for (const [index, text] of lines.entries()) {
    const column = text.search(/\bmetadata\s*[=:]/);
    if (column >= 0) return { file, line: index + 1, column: column + 1 };
  }
  return { file, line: 1, column: 1 };
}

/** `<img src="/static/logo.png" class="logo">` → `<img>`: the tag is what the author finds in the JSX. */
const tagOf = (html: string) => /^<([a-zA-Z][\w-]*)/.exec(html)?.[1];

/** axe's "Fix any of the following:\n  Element does not have an alt attribute\n  ..." → its first reason. */
function firstReason(summary: string): string | undefined {
  const reason = summary
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line && !/^Fix (any|all) of the following:?$/.test(line));
  return reason?.replace(/\.$/, '');
}

const authorPosition = (chain: WrittenAt[]) => chain.find((at) => isAuthorSource(at.file));

export function pageFindings(violations: AxeViolation[], metadataAt: A11yFinding['at']): A11yFinding[] {
  return violations.flatMap((violation) =>
    violation.nodes.map((node): A11yFinding => {
      const documentWide = METADATA_RULES[violation.id];
      const at = documentWide ? metadataAt : authorPosition(node.writtenAt);
      const tag = tagOf(node.html);
      const reason = firstReason(node.failureSummary);
      const message = documentWide ?? `${tag ? `<${tag}>: ` : ''}${violation.help}${reason ? `. ${reason}` : ''}.`;
      return { rule: violation.id, impact: violation.impact, message, source: 'page', element: node.html, helpUrl: violation.helpUrl, ...(at ? { at } : {}) };
    }),
  );
}
