/** `imprint check`'s accessibility flags: `--a11y` and the impact it fails at. */
import type { Command } from 'commander';
import { DEFAULT_A11Y_LEVEL, IMPACTS, parseImpact } from '../core/check/a11y/findings.js';

export function addA11yOptions(command: Command): Command {
  return command
    .option('--a11y', 'also check accessibility: axe-core in the rendered page (each finding at its TSX line) and the printed PDF (tags, /Lang, title, links, figures\' alt text)')
    .option('--a11y-level <impact>', `with --a11y: fail on findings of this impact or above (${IMPACTS.join(', ')})`, parseImpact, DEFAULT_A11Y_LEVEL);
}

export const A11Y_HELP = [
  '',
  'Accessibility (--a11y): the PreviewProps render is checked with axe-core in Chromium before it',
  'is printed, and the tagged PDF after. Each finding names the file:line:column of the JSX to',
  'fix, the rule and its impact; findings at --a11y-level or above fail the template (exit 1),',
  'those below are listed. The document\'s language and title come from the template\'s metadata:',
  '  Invoice.metadata = { title: \'Invoice\', language: \'en-GB\' };',
  'See docs/accessibility.md.',
].join('\n');
