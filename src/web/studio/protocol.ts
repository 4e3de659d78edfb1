/**
 * What `imprint dev`'s server tells the studio (src/cli/dev/studio-routes.ts answers, the studio
 * reads): the shapes of its JSON, in the browser wing because the page is their reader; the
 * server imports them as types only. Nothing here may use the DOM or Node.
 */

/** Where an error of the template points, as a file the author's editor can open. */
export interface ErrorLocation {
  /** Absolute path of the file. */
  file: string;
  line: number;
  column: number;
}

/** axe-core's impacts (the PDF-side checks use them too). */
export type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

/** One accessibility finding, as `imprint check --a11y` reports it (src/core/check/a11y/findings.ts). */
export interface Finding {
  /** axe-core's rule id (`image-alt`), or a PDF check's (`pdf-tagged`). */
  rule: string;
  impact: Impact;
  message: string;
  /** The JSX (or the template's `metadata`) to fix, where known. */
  at?: ErrorLocation;
  source: 'page' | 'pdf';
  /** The element as the page had it. */
  element?: string;
  /** The rule's explanation (Deque University). */
  helpUrl?: string;
}

/** The accessibility findings of a template's last printed preview, checked after its print. */
export interface AccessibilityState {
  /** `checking`: the preview is on show and its findings are on their way (the previous ones meanwhile). */
  status: 'checking' | 'done' | 'failed';
  findings: Finding[];
  /** Why the check could not run. */
  error?: string;
  /** The props they were found with: the props file's name or "PreviewProps". */
  props: string;
}

/** A template as the studio lists it: its entry, without the PDF bytes. */
export interface TemplateState {
  name: string;
  /** The file, relative to the folder `imprint dev` serves. */
  file: string;
  version: number;
  building: boolean;
  ok: boolean;
  error?: string;
  /** The file and line the error points at, for a link that opens it in an editor. */
  errorAt?: ErrorLocation;
  /** The error is the build's: the HTML view shows the last artifact that built. */
  buildFailed: boolean;
  problems: string[];
  props: string;
  ms: number;
  /** The version whose PDF /t/<name>/pdf serves (the last that rendered), 0 for none yet. */
  pdfVersion: number;
  /** The version of the last artifact that built, served to the studio's HTML view; 0 for none yet. */
  artifactVersion: number;
  /** Absent until a preview of it printed. */
  a11y?: AccessibilityState;
}
