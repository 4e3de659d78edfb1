/** What the preview pages are told about a template: its entry, without the PDF bytes. */
import path from 'node:path';
import type { TemplateEntry } from './dev-session.js';

export interface TemplateState {
  name: string;
  /** The file, relative to the folder `imprint dev` serves. */
  file: string;
  version: number;
  building: boolean;
  ok: boolean;
  error?: string;
  problems: string[];
  props: string;
  ms: number;
  /** The version whose PDF /t/<name>/pdf serves (the last that rendered), 0 for none yet. */
  pdfVersion: number;
}

export function templateState(entry: TemplateEntry, root: string): TemplateState {
  const preview = entry.preview;
  return {
    name: entry.name,
    file: path.relative(root, entry.file) || path.basename(entry.file),
    version: entry.version,
    building: entry.building,
    ok: preview?.ok ?? false,
    error: preview?.error,
    problems: preview?.problems ?? [],
    props: preview?.props ?? 'PreviewProps',
    ms: Math.round(preview?.ms ?? 0),
    pdfVersion: entry.lastPdf?.version ?? 0,
  };
}
