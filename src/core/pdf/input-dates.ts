/**
 * Deterministic dates for inputs that have no publish time (document-date.ts): a template
 * bundled from a local file, and generate's HTML or URL. Both come from the content.
 */
import type { Artifact } from '../artifact.js';
import type { HtmlSource } from '../render/render-html.js';
import { dateFromContent } from './document-date.js';

/**
 * What the template is made of: its script, styles and static files. Not its source map or
 * file name, which hold paths of the machine it was built on: the same template gives the
 * same date on a laptop and in CI.
 */
export function artifactDate(artifact: Artifact): Date {
  let date = artifactDates.get(artifact);
  if (!date) artifactDates.set(artifact, (date = hashArtifact(artifact)));
  return date;
}

/** A batch renders one artifact many times; its megabytes are hashed once. */
const artifactDates = new WeakMap<Artifact, Date>();

function hashArtifact(artifact: Artifact): Date {
  const assets = Object.keys(artifact.assets)
    .sort()
    .map((key) => `${key}\n${artifact.assets[key].contentType}\n${artifact.assets[key].base64}`);
  return dateFromContent(artifact.js, artifact.css, ...assets);
}

/** A web page's content is not known before it loads: its address stands for it. */
export function sourceDate(source: HtmlSource): Date {
  return dateFromContent(source.html ?? '', source.url ?? '');
}
