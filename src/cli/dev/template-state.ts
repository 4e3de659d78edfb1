/** What the preview pages are told about a template: its entry, without the PDF bytes. */
import path from 'node:path';
import { locateTemplate } from '../../core/bundle/find-project.js';
import type { TemplateEntry } from './dev-session.js';
import { locateError, type ErrorLocation } from './error-location.js';

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
    errorAt: preview?.error ? locateError(preview.error, [path.dirname(entry.file), locateTemplate(entry.file).projectDir]) : undefined,
    buildFailed: preview ? !preview.built : false,
    problems: preview?.problems ?? [],
    props: preview?.props ?? 'PreviewProps',
    ms: Math.round(preview?.ms ?? 0),
    pdfVersion: entry.lastPdf?.version ?? 0,
    artifactVersion: entry.artifactVersion,
  };
}
