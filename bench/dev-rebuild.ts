/**
 * `tsx bench/dev-rebuild.ts [rounds]`: what one save costs `imprint dev` in build time, on a
 * copy of the example invoice edited between builds. Compares the one-shot build (publish's:
 * minified, a new esbuild build each time) with dev's kept context (`rebuild()`), minified and not.
 *
 * Then dev with the local template cache (backend/template-cache): a save's path (the cache's
 * lookup, a miss, then the kept context's rebuild) alternated round by round with the rebuild
 * alone, so a change in the machine's load meets both; what is done off that path (dev's build
 * recorded after its print, the publish build once saves pause); and a template's first
 * preview in a session: from the cache (a lookup that hits, in a new process's cache) against
 * a new esbuild context and the props schema derived, which is what every start did before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleTemplate, createTemplateBuilder, type TemplateBuilder } from '../src/core/bundle/bundle-template.js';
import { derivePropsSchemaWithInputs } from '../src/core/schema/derive-props-schema.js';
import { BUILD_VARIANTS } from '../src/backend/template-cache/build-variants.js';
import { createTemplateCache, type TemplateCache } from '../src/backend/template-cache/template-cache.js';
import { percentile } from './lib/stats.js';

const rounds = Number(process.argv[2] ?? 10);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-bench-rebuild-'));
const project = path.join(work, 'invoice');
fs.cpSync(path.resolve('templates-example/invoice'), project, { recursive: true });
const template = path.join(project, 'Invoice.tsx');
const original = fs.readFileSync(template, 'utf8');
const dataDir = path.join(work, 'data');
const newCache = () => createTemplateCache({ dataDir, maxBytes: 256 * 1024 * 1024 });
let edits = 0;
/**
 * Each build sees a changed template, as after a save. Dated a second back: in dev a build
 * starts 20 ms after the save at the earliest, and the cache keeps no build of a file written
 * while it was made (input-state.ts writtenBetween); here the build starts microseconds after.
 */
const edit = () => {
  fs.writeFileSync(template, `${original}\n// edit ${++edits}\n`);
  const before = new Date(Date.now() - 1000);
  fs.utimesSync(template, before, before);
};

const report = (label: string, samples: number[]) =>
  process.stdout.write(`${label}: median ${percentile(samples, 50).toFixed(0)} ms (min ${Math.min(...samples).toFixed(0)}, max ${Math.max(...samples).toFixed(0)}; ${samples.length} runs)\n`);

async function timed(work: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function time(label: string, build: () => Promise<unknown>) {
  await build(); // the first build (cold) is not what a save costs
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    edit();
    samples.push(await timed(build));
  }
  report(label, samples);
}

/** Dev's builder after one build, as in a session that has previewed the template. */
async function warmBuilder(): Promise<TemplateBuilder> {
  const builder = createTemplateBuilder(template, BUILD_VARIANTS.dev);
  await builder.build();
  return builder;
}

/** A save's build and dev's record of it, as the session makes them (since: when the build started). */
async function devBuild(builder: TemplateBuilder, cache: TemplateCache): Promise<void> {
  const since = Date.now();
  const bundled = await builder.build();
  if (!(await cache.record(template, 'dev', { bundled, typed: derivePropsSchemaWithInputs(template), since }))) throw new Error('the dev build was not kept');
}

try {
  await time('one-shot build, minified (publish, render, check)', () => bundleTemplate(template));
  const minified = createTemplateBuilder(template, { minify: true });
  await time('kept context, minified', () => minified.build());
  await minified.dispose();
  const dev = createTemplateBuilder(template, { minify: false });
  await time('kept context, unminified (imprint dev)', () => dev.build());
  await dev.dispose();

  process.stdout.write('\nimprint dev with the template cache (its options: unminified, with source positions)\n');
  const cold = await timed(() => derivePropsSchemaWithInputs(template));
  process.stdout.write(`the props schema, first in a process (TypeScript's first program): ${cold.toFixed(0)} ms (one run)\n`);

  // A save: the rebuild alone (before) and the cache's lookup then the rebuild (now), alternated.
  const cache = newCache();
  const [alone, withLookup] = [await warmBuilder(), await warmBuilder()];
  await devBuild(withLookup, cache); // the cache holds the template's previous build, as after a preview
  const before: number[] = [];
  const now: number[] = [];
  const lookups: number[] = [];
  for (let i = 0; i < rounds; i++) {
    edit();
    before.push(await timed(() => alone.build()));
    edit();
    const started = performance.now();
    lookups.push(await timed(async () => {
      if (await cache.lookup(template, 'dev')) throw new Error('an edited template was found in the cache');
    }));
    await withLookup.build();
    now.push(performance.now() - started);
  }
  report("a save's build: the kept context's rebuild alone (before)", before);
  report("a save's build: the cache's lookup (a miss), then the rebuild (now)", now);
  report('  of which the lookup', lookups);
  await alone.dispose();

  // Off the save's path: after the print, dev's build is recorded (its schema already derived for the print).
  const recording: number[] = [];
  const publishing: number[] = [];
  for (let i = 0; i < rounds; i++) {
    edit();
    const since = Date.now();
    const bundled = await withLookup.build();
    const typed = derivePropsSchemaWithInputs(template);
    recording.push(await timed(() => cache.record(template, 'dev', { bundled, typed, since })));
    publishing.push(await timed(() => cache.prepare(template, 'publish')));
  }
  report("after a save's print: dev's build recorded", recording);
  report('once saves pause: the publish build (schema from dev\'s)', publishing);

  // A template's first preview in a session: before, a new context and the schema; now, a lookup in a new process's cache.
  const firstBuilds: number[] = [];
  const fromCache: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const builder = createTemplateBuilder(template, BUILD_VARIANTS.dev);
    firstBuilds.push(await timed(async () => {
      await builder.build();
      derivePropsSchemaWithInputs(template);
    }));
    await builder.dispose();
    fromCache.push(await timed(async () => {
      if ((await newCache().lookup(template, 'dev'))?.from !== 'disk') throw new Error('the first preview was not in the cache');
    }));
  }
  report('first preview, build: a new esbuild context + the props schema (TypeScript warm)', firstBuilds);
  report('first preview, build: from the cache (a lookup that hits, read from disk)', fromCache);

  // The first save after a start from the cache builds a new context: what the start deferred.
  const firstSaves: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const builder = createTemplateBuilder(template, BUILD_VARIANTS.dev);
    edit();
    firstSaves.push(await timed(() => builder.build()));
    await builder.dispose();
  }
  report('first save after a start from the cache: a new esbuild context', firstSaves);
  await withLookup.dispose();
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
