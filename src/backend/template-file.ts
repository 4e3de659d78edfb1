/**
 * A local template file (a path, not a published id) rendered without publishing: bundled now,
 * its props checked against the schema a publish would store, rendered by the embedded engine.
 * `imprint render ./Invoice.tsx`, a batch over a file and the library's
 * `imprint.render('./Invoice.tsx')` all go through here, so they check and render alike.
 */
import path from 'node:path';
import type { Artifact } from '../core/artifact.js';
import type { RenderOptions } from '../core/render-request.js';
import type { EmbeddedBackend } from './embedded.js';

// esbuild and the TypeScript compiler load only when a template file is rendered: a render of a
// published template starts without them (see bench/README.md, one-shot cold start).
const loadBundler = () => import('../core/bundle/bundle-template.js');
const loadSchemas = () => Promise.all([import('../core/schema/derive-props-schema.js'), import('../core/schema/validate-props.js')]);

/** Throws INVALID_INPUT, naming `what` ("The props for ./Invoice.tsx"), when props do not fit the template's type. */
export type PropsCheck = (props: unknown, what: string) => void;

/** The props check a publish would store, derived from the file's props type; undefined when it has none. */
export async function templateFileCheck(file: string): Promise<PropsCheck | undefined> {
  const [{ derivePropsSchema }, { validateProps }] = await loadSchemas();
  const derived = derivePropsSchema(file);
  return derived.kind === 'schema' ? (props, what) => validateProps(derived.schema, props, what) : undefined;
}

/** The file bundled as a publish would bundle it (a relative path is read from the working folder). */
export async function bundleTemplateFile(file: string): Promise<Artifact> {
  const { bundleTemplate } = await loadBundler();
  return (await bundleTemplate(path.resolve(file))).artifact;
}

/** A file bundled once, with its props check, for rendering many times (a batch's rows). */
export async function prepareTemplateFile(file: string): Promise<{ artifact: Artifact; check?: PropsCheck }> {
  const [artifact, check] = await Promise.all([bundleTemplateFile(file), templateFileCheck(file)]);
  return { artifact, check };
}

/** How a face shows the two long steps (the CLI's spinners); the library shows nothing. */
export type TemplateFileStep = <T>(step: 'Bundling' | 'Rendering', work: () => Promise<T>) => Promise<T>;

const silently: TemplateFileStep = (_step, work) => work();

/**
 * `props` undefined: the template's PreviewProps. Wrong props fail before the bundle is built
 * and before a page opens.
 */
export async function renderTemplateFile(
  backend: Pick<EmbeddedBackend, 'renderArtifact'>,
  file: string,
  props: unknown,
  options: RenderOptions,
  step: TemplateFileStep = silently,
): ReturnType<EmbeddedBackend['renderArtifact']> {
  if (props !== undefined) (await templateFileCheck(file))?.(props, `The props for ${file}`);
  const artifact = await step('Bundling', () => bundleTemplateFile(file));
  return step('Rendering', () => backend.renderArtifact(artifact, props, options));
}
