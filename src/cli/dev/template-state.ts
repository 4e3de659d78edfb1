/** What the preview pages are told about a template: its entry, without the PDF bytes. */
import path from 'node:path';
import { locateTemplate } from '../../core/bundle/find-project.js';
import type { TemplateEntry } from './dev-session.js';
import type { TemplateState } from '../../web/studio/protocol.js';
import { locateError } from './error-location.js';

export type { TemplateState };

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
    ...(entry.a11y ? { a11y: entry.a11y } : {}),
  };
}
