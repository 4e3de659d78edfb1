/**
 * One preview of one template: build it (or take its build from the template cache), pick its
 * props (a `<Name>.props.json` beside it, else its PreviewProps), check them against its props
 * type, render with diagnostics.
 * The template's failures become part of the result, shown in the page: the author fixes
 * the file and the next save tries again. A missing browser (or a bug of ours) is thrown.
 *
 * The preview is printed as `imprint check --a11y` prints (tagged), and the same accessibility
 * check runs on its page after the print: axe-core costs about 40% of a preview's render and
 * print (bench/dev-a11y.ts), so the preview is shown at once and its findings follow.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import type { Artifact } from '../../core/artifact.js';
import type { BundledTemplate, TemplateBuilder } from '../../core/bundle/bundle-template.js';
import { locateTemplate } from '../../core/bundle/find-project.js';
import { A11Y_PRINT, inspectAccessibility } from '../../core/check/a11y/check-a11y.js';
import { resolveFindings, type A11yFinding } from '../../core/check/a11y/findings.js';
import { describeError, diagnosticProblems } from '../../core/check/check-template.js';
import { renderDiagnosed } from '../../core/check/render-diagnosed.js';
import { ImprintError } from '../../core/errors.js';
import { parseProps } from '../../core/render-request.js';
import type { DerivedSchema } from '../../core/schema/derive-props-schema.js';
import { propsErrors, validateProps } from '../../core/schema/validate-props.js';
import type { BuildVariant } from '../../backend/template-cache/build-variants.js';
import type { TemplateCache } from '../../backend/template-cache/template-cache.js';
import { readTemplateSource } from '../../backend/template-file.js';

export interface Preview {
  ok: boolean;
  /** The build, props or render error, with its file:line:column and code frame where known. */
  error?: string;
  /** Not fatal: console errors, failed requests or fonts, PreviewProps that miss their type. */
  problems: string[];
  pdf?: Buffer;
  /** The template bundled (a later error is the props' or the render's, not the build's). */
  built: boolean;
  /** Its build came from the template cache (an earlier render, publish or dev session), not from a bundle now. */
  fromCache: boolean;
  /** "PreviewProps" or the props file's name. */
  props: string;
  /** Every file the preview depends on, to watch. */
  inputs: string[];
  /** Folders whose every file counts (static/). */
  trees: string[];
  ms: number;
  /**
   * With a PDF: its accessibility findings (each file absolute), a moment after the preview.
   * Rejects when the check itself could not run; the session always awaits it.
   */
  accessibility?: Promise<A11yFinding[]>;
}

export interface PreviewDeps {
  browser: () => Promise<Browser>;
  timeoutMs: number;
}

const propsFileFor = (file: string) => path.join(path.dirname(file), `${path.basename(file).replace(/\.[jt]sx$/, '')}.props.json`);


function readPropsFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ImprintError('INVALID_INPUT', `Cannot read ${path.basename(file)}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return parseProps(JSON.parse(text));
  } catch (error) {
    throw new ImprintError('INVALID_INPUT', `${path.basename(file)} is not a JSON object: ${(error as Error).message}`, { cause: error });
  }
}

/** Where a preview's bundle came from. */
export type PreviewBuild =
  /** Kept in the template cache: its schema came with it, and there is nothing to record. */
  | { from: 'cache'; variant: BuildVariant; derived: DerivedSchema; typed: string[] }
  /** Built now by the template's esbuild context (`since`: when it started), to be recorded once its schema is derived. */
  | { from: 'context'; bundled: BundledTemplate; since: number };

/** A preview's first stage: the bundle, or the build error as a finished preview. */
export type BundledPreview =
  | { ok: true; artifact: Artifact; source: string; inputs: string[]; trees: string[]; started: number; build: PreviewBuild }
  | { ok: false; preview: Preview };

const treesOf = (file: string) => {
  const staticDir = locateTemplate(file).staticDir;
  return staticDir ? [staticDir] : [];
};

/**
 * The build alone, a fraction of a second: the studio's HTML view shows its artifact at once,
 * and a save during the print that follows (seconds) is built without waiting for that print.
 * A build of the template's files as they are now, kept in the cache as one of `variants`, is
 * taken from there (one stat per input): no bundle, and no props type to derive.
 */
export async function bundlePreview(file: string, builder: TemplateBuilder, cache: TemplateCache, variants: BuildVariant[], previousInputs: string[]): Promise<BundledPreview> {
  const started = performance.now();
  const propsFile = propsFileFor(file);
  const trees = treesOf(file);
  const watched = (inputs: string[]) => [...new Set([...inputs, file, propsFile])];
  try {
    for (const variant of variants) {
      const kept = await cache.lookup(file, variant);
      if (kept) {
        const build: PreviewBuild = { from: 'cache', variant, derived: kept.derived, typed: kept.typed };
        return { ok: true, artifact: kept.artifact, source: readTemplateSource(file), inputs: watched(kept.inputs), trees, started, build };
      }
    }
    const since = Date.now();
    const bundled = await builder.build();
    return { ok: true, artifact: bundled.artifact, source: bundled.source, inputs: watched(bundled.inputs), trees, started, build: { from: 'context', bundled, since } };
  } catch (error) {
    // Until a build succeeds its inputs are unknown: keep watching the last known ones and the file itself.
    const inputs = [...new Set([file, propsFile, ...previousInputs])];
    const propsLabel = fs.existsSync(propsFile) ? path.basename(propsFile) : 'PreviewProps';
    return { ok: false, preview: { ok: false, built: false, fromCache: false, error: describeError(error), problems: [], props: propsLabel, inputs, trees, ms: performance.now() - started } };
  }
}

/**
 * The second stage: the props file (else PreviewProps) checked against the props type (`schemaOf`:
 * the build's, kept with it or derived when first asked), and the print with diagnostics.
 */
export async function printPreview(file: string, bundled: Extract<BundledPreview, { ok: true }>, deps: PreviewDeps, schemaOf: () => DerivedSchema): Promise<Preview> {
  const propsFile = propsFileFor(file);
  const { inputs, trees } = bundled;
  const fromCache = bundled.build.from === 'cache';
  const result = (fields: Omit<Preview, 'ms' | 'trees' | 'built' | 'inputs' | 'fromCache'>): Preview => ({ ...fields, built: true, fromCache, inputs, trees, ms: performance.now() - bundled.started });
  let propsLabel = 'PreviewProps';
  try {
    const props = readPropsFile(propsFile);
    if (props !== undefined) propsLabel = path.basename(propsFile);
    const schema = schemaOf();
    if (props !== undefined && schema.kind === 'schema') validateProps(schema.schema, props, `The props in ${propsLabel}`);

    const projectDir = locateTemplate(file).projectDir;
    const a11y = inspectAccessibility(bundled.source, path.relative(projectDir, file));
    const rendered = await renderDiagnosed(await deps.browser(), bundled.artifact, props, A11Y_PRINT, deps.timeoutMs, { afterPrint: a11y.inPage });
    const problems = diagnosticProblems(rendered.diagnostics);
    if (props === undefined && schema.kind === 'schema') {
      problems.push(...propsErrors(schema.schema, rendered.diagnostics.previewProps).map((text) => `PreviewProps: ${text}`));
    }
    const accessibility = rendered.afterPrint!.then(async () => resolveFindings(await a11y.findings(rendered.pdf, rendered.metadata, rendered.facts), projectDir));
    return result({ ok: true, problems, pdf: rendered.pdf, props: propsLabel, accessibility });
  } catch (error) {
    // The template's failures are shown in the page; a missing browser or a bug is thrown.
    return result({ ok: false, error: describeError(error), problems: [], props: propsLabel });
  }
}
