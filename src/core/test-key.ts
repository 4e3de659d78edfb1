/**
 * Test keys (api.md Part F; what DocRaptor, PDFShift and Fileforge call sandbox mode): a
 * render made with one is stamped "TEST" diagonally on every page and not counted against the
 * team's limit. The server marks the caller's team object of such a request (the object made
 * for that request by the key's lookup), and the engine asks here, at the two points where
 * it counts and where it forms the result; nothing else changes.
 */
import { stampPdf } from './pdf/stamp-pdf.js';
import type { Team } from './store/types.js';

const testTeams = new WeakSet<Team>();

/** This request's team object renders as a test key's: stamped, not counted. */
export function markTestKey(team: Team): Team {
  testTeams.add(team);
  return team;
}

export const isTestKeyRender = (team: Team): boolean => testTeams.has(team);

export const TEST_STAMP = 'TEST';

/** The PDF with a large, translucent, red TEST along every page's diagonal: a stamp (pdf/stamp-pdf.ts), so real text, searchable. */
export function stampTest(pdf: Buffer): Promise<Buffer> {
  return stampPdf(pdf, { content: { text: TEST_STAMP }, pages: 'all', position: 'center', opacity: 0.22, rotate: 'diagonal', color: [0.8, 0.1, 0.1] });
}
