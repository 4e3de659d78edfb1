/**
 * The accessibility flags of render (single and batch) and generate: --[no-]tagged,
 * --[no-]outline, --pdfua. They become the request fields `tagged`, `outline` and `pdfua`,
 * read by the core's parser (core/pdf/accessibility-options.ts), which holds the defaults.
 */
import type { Command } from 'commander';
import { guideFile } from '../core/guides.js';
import { parseAccessibility, type AccessibilityOptions } from '../core/pdf/accessibility-options.js';

export interface AccessibilityFlags {
  tagged?: boolean;
  outline?: boolean;
  pdfua?: boolean;
}

export function addAccessibilityOptions(command: Command): Command {
  return (
    command
      // Both spellings declared, so an absent flag is undefined and the core's default decides.
      .option('--tagged', 'a tagged PDF, with structure for screen readers (the default)')
      .option('--no-tagged', 'an untagged PDF: no structure tree, no bookmarks (smaller and faster; see bench/README.md)')
      .option('--outline', 'bookmarks from the h1-h6 headings, nested by level (the default for a tagged PDF)')
      .option('--no-outline', 'no bookmarks')
      .option('--pdfua', `a PDF/UA-1 candidate (accessible PDF): needs a title and a language; combines with --pdfa and --einvoice (see ${guideFile('accessibility')})`)
  );
}

export function accessibilityOptions(flags: AccessibilityFlags): AccessibilityOptions {
  return parseAccessibility({ tagged: flags.tagged, outline: flags.outline, pdfua: flags.pdfua });
}
