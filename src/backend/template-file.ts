/**
 * A local template file (a path, not a published id) rendered without publishing: its bundle
 * and props schema taken from the local template cache (template-cache/, built only when
 * something they are made from changed), its props checked against the schema a publish would
 * store, rendered by the embedded engine. `imprint render ./Invoice.tsx` (in the CLI or on the
 * warm renderer), a batch over a file and the library's `imprint.render('./Invoice.tsx')` all
 * go through here, so they check and render alike.
 */
import fs from 'node:fs';
import type { Artifact } from '../core/artifact.js';
import type { RenderOptions } from '../core/render-request.js';
import type { DerivedSchema } from '../core/schema/derive-props-schema.js';
import type { EmbeddedBackend } from './embedded.js';
import type { TemplateCache } from './template-cache/template-cache.js';

/** Throws INVALID_INPUT, naming `what` ("The props for ./Invoice.tsx"), when props do not fit the template's type. */
export type PropsCheck = (props: unknown, what: string) => void;

/** The props check a publish would store; undefined when the template declares no props type. Ajv loads only when there is one. */
async function propsCheck(derived: DerivedSchema): Promise<PropsCheck | undefined> {
  if (derived.kind !== 'schema') return undefined;
  const { validateProps } = await import('../core/schema/validate-props.js');
  return (props, what) => validateProps(derived.schema, props, what);
}

/** The file bundled as a publish would bundle it (a relative path is read from the working folder). */
export async function bundleTemplateFile(cache: TemplateCache, file: string): Promise<Artifact> {
  return (await cache.prepare(file)).artifact;
}

/** A file's bundle with its props check, for rendering many times (a batch's rows). */
export async function prepareTemplateFile(cache: TemplateCache, file: string): Promise<{ artifact: Artifact; check?: PropsCheck }> {
  const prepared = await cache.prepare(file);
  return { artifact: prepared.artifact, check: await propsCheck(prepared.derived) };
}

/** How a face shows the two long steps (the CLI's spinners); the library shows nothing. */
export type TemplateFileStep = <T>(step: 'Bundling' | 'Rendering', work: () => Promise<T>) => Promise<T>;

const silently: TemplateFileStep = (_step, work) => work();

/**
 * `props` undefined: the template's PreviewProps. Wrong props fail before a page opens.
 * `shown`: how messages name the file (as the user gave it), when `file` was resolved for them.
 */
export async function renderTemplateFile(
  backend: Pick<EmbeddedBackend, 'renderArtifact'>,
  cache: TemplateCache,
  file: string,
  props: unknown,
  options: RenderOptions,
  step: TemplateFileStep = silently,
  shown = file,
): ReturnType<EmbeddedBackend['renderArtifact']> {
  const { artifact, check } = await step('Bundling', () => prepareTemplateFile(cache, file));
  if (props !== undefined) check?.(props, `The props for ${shown}`);
  return step('Rendering', () => backend.renderArtifact(artifact, props, options));
}

/** The template's text, for its id (`export const id`) when published; read after the cache had it built, so it exists. */
export const readTemplateSource = (file: string): string => fs.readFileSync(file, 'utf8');
