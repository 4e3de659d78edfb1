/**
 * Whether this bench run's PDFs are tagged, decided once for every scenario. By default they are
 * whatever the build prints by default (tagged since issue 38). `--no-tagged` on the command
 * line makes every row of Imprint's print untagged: the CLI's renders (batch, one-shot, the
 * shell loops, the local file; a remote batch passes it on to its job as `tagged: false`), the
 * service's requests, the engine's renders and the floor's bare print. Issue 40 compares the
 * rows with a build from before issue 38, whose default was untagged; with tags on, that
 * comparison would measure issue 38's choice (Chromium's tagged print alone is ~1.2x on the
 * invoice), not issue 40's work. The naive loop and the reference script print with Puppeteer's
 * defaults either way, as they did before: they are the yardsticks, not Imprint's print.
 */
import { execFileSync } from 'node:child_process';
import type { PrintRequest } from '../../src/core/render/render-types.js';
import { withFile } from '../../test/helpers/pdf.js';

const untagged = process.argv.includes('--no-tagged');

export const tagging = {
  /** For the printed header. */
  label: untagged ? 'untagged (--no-tagged)' : 'tagged (default)',
  /** Extra arguments of `imprint render` / `generate`. */
  cliArgs: untagged ? ['--no-tagged'] : [],
  /** The request's fields (api.md, Request fields): the service's body, the engine's options, the print step's request. */
  request: (untagged ? { tagged: false } : {}) satisfies PrintRequest,
};

/**
 * With --no-tagged, stops the run when a scenario's PDF came out tagged anyway (a path the flag
 * did not reach), by pdfinfo's `Tagged:` line; checked on one PDF per scenario, outside the timing.
 */
export function checkUntagged(pdf: Buffer | string, what: string): void {
  if (!untagged) return;
  const info = withFile(pdf, (file) => execFileSync('pdfinfo', [file], { encoding: 'utf8' }));
  const tagged = /^Tagged:\s+(\w+)/m.exec(info)?.[1];
  if (tagged !== 'no') throw new Error(`--no-tagged: ${what} printed a PDF that pdfinfo reports as Tagged: ${tagged ?? '(no Tagged line)'}; the flag did not reach that path`);
}
