/**
 * The published form of a template: one immutable JSON document holding the browser bundle,
 * its CSS, its source map (to point a render error at the template's own source) and the
 * files of its `static/` folder. It needs nothing else to render: no network, no disk.
 */
import { ImprintError } from './errors.js';

export const ARTIFACT_FORMAT = 'imprint.artifact/1';

export interface ArtifactAsset {
  contentType: string;
  base64: string;
}

export interface Artifact {
  format: typeof ARTIFACT_FORMAT;
  /** The template's file name, for messages. */
  sourceName: string;
  js: string;
  css: string;
  sourceMap?: string;
  /** URL path on the template origin ("/static/fonts/a.woff2") -> file. */
  assets: Record<string, ArtifactAsset>;
}

export function encodeArtifact(artifact: Artifact): Buffer {
  return Buffer.from(JSON.stringify(artifact));
}

export function decodeArtifact(bytes: Buffer | string): Artifact {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString());
  } catch (error) {
    throw new ImprintError('INVALID_INPUT', 'The template artifact is not valid JSON. Publish the template again with `imprint publish`.', { cause: error });
  }
  const artifact = value as Partial<Artifact>;
  if (artifact?.format !== ARTIFACT_FORMAT || typeof artifact.js !== 'string' || typeof artifact.css !== 'string' || typeof artifact.assets !== 'object') {
    throw new ImprintError('INVALID_INPUT', `The template artifact is not in the ${ARTIFACT_FORMAT} format. Publish it with this version of imprint.`);
  }
  return artifact as Artifact;
}
