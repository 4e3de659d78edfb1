/**
 * A template's CSS goes through PostCSS when its project asks for it: Tailwind (v4's
 * `@import "tailwindcss"` or v3's `@tailwind` directives) or a PostCSS config of the
 * project's own. Any other CSS is left to esbuild's css loader: it costs one read and a regex.
 * PostCSS and the project's plugins are build tooling loaded in Node; the template itself
 * is never run here.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type * as esbuild from 'esbuild';
import type { AcceptedPlugin, Message, ProcessOptions, Processor, Warning } from 'postcss';
import { isImprintError } from '../errors.js';
import { packageRoot } from '../package-root.js';
import { hasPostcssConfig, loadPostcssConfig } from './css-postcss-config.js';
import { configStamp } from './config-stamp.js';
import {
  TAILWIND_PLUGIN_NAMES,
  loadTailwindPlugins,
  tailwindDirectivePosition,
  tailwindFlavor,
  v3ConfigMissing,
  type TailwindFlavor,
} from './css-tailwind.js';

interface Pipeline {
  processor: Processor;
  options: ProcessOptions;
  /** Config files behind the plugins, for esbuild's watch mode. */
  files: string[];
}

// Per process, so a batch of builds loads a project's plugins once. Tailwind's own plugin
// keeps per-file caches and rescans sources on every run, so reusing it stays correct.
const pipelines = new Map<string, Promise<Pipeline>>();

function pipelineFor(projectDir: string, flavor: TailwindFlavor | undefined): Promise<Pipeline> {
  // An edited config is another pipeline (config-stamp.ts); the old one is dropped.
  const prefix = `${projectDir}\0${flavor ?? 'config'}\0`;
  const key = `${prefix}${configStamp(projectDir)}`;
  for (const old of pipelines.keys()) if (old.startsWith(prefix) && old !== key) pipelines.delete(old);
  let pipeline = pipelines.get(key);
  if (!pipeline) {
    pipeline = createPipeline(projectDir, flavor);
    pipelines.set(key, pipeline);
    // A failure (Tailwind not installed yet) must not outlive the build that met it.
    pipeline.catch(() => pipelines.delete(key));
  }
  return pipeline;
}

async function createPipeline(projectDir: string, flavor: TailwindFlavor | undefined): Promise<Pipeline> {
  const [{ default: postcss }, config, tailwind] = await Promise.all([
    import('postcss'),
    hasPostcssConfig(projectDir) ? loadPostcssConfig(projectDir) : undefined,
    flavor ? loadTailwindPlugins(flavor, projectDir, packageRoot()) : undefined,
  ]);
  const plugins = withTailwind(config?.plugins ?? [], tailwind?.plugins, flavor);
  const files = [...(config ? [config.file] : []), ...(tailwind?.files ?? [])];
  return { processor: postcss(plugins), options: config?.options ?? {}, files };
}

const pluginName = (plugin: AcceptedPlugin) => (plugin as { postcssPlugin?: unknown }).postcssPlugin;

/**
 * A Tailwind entry of the project's config is replaced by ours, in the same place in the
 * chain: the config's copy would scan the working directory, ours scans the project.
 */
function withTailwind(configured: AcceptedPlugin[], tailwind: AcceptedPlugin[] | undefined, flavor: TailwindFlavor | undefined): AcceptedPlugin[] {
  if (!tailwind || !flavor) return configured;
  const name = TAILWIND_PLUGIN_NAMES[flavor];
  const at = configured.findIndex((plugin) => pluginName(plugin) === name);
  if (at === -1) return [...tailwind, ...configured];
  return [...configured.slice(0, at), ...tailwind, ...configured.slice(at + 1).filter((plugin) => pluginName(plugin) !== name)];
}

/**
 * `onDependencies`: told the files a CSS file's PostCSS run read besides the CSS itself (the
 * configs, the sources Tailwind scanned), which esbuild's metafile does not list: the local
 * template cache (backend/template-cache) fingerprints them with the build's inputs.
 */
export function cssPipelinePlugin(projectDir: string, onDependencies?: (files: string[]) => void): esbuild.Plugin {
  return {
    name: 'imprint-css-pipeline',
    setup(build) {
      build.onLoad({ filter: /\.css$/, namespace: 'file' }, async (args): Promise<esbuild.OnLoadResult | undefined> => {
        const css = await fs.readFile(args.path, 'utf8');
        const flavor = tailwindFlavor(css);
        if (!flavor && !hasPostcssConfig(projectDir)) return undefined;
        try {
          const pipeline = await pipelineFor(projectDir, flavor);
          const missingConfig = flavor === 'v3' ? v3ConfigMissing(css, projectDir) : undefined;
          if (missingConfig) throw missingConfig;
          if (pipeline.processor.plugins.length === 0) return undefined; // a config that lists no plugins
          const result = await pipeline.processor.process(css, { ...pipeline.options, from: args.path, to: args.path, map: false });
          onDependencies?.([...pipeline.files, ...dependencies(result.messages, 'dependency', 'file')]);
          return {
            contents: result.css,
            // esbuild treats *.module.css as CSS modules by default; keep that.
            loader: args.path.endsWith('.module.css') ? 'local-css' : 'css',
            // Tailwind's output keeps url() and @import relative to the source file.
            resolveDir: path.dirname(args.path),
            warnings: result.warnings().map((warning) => toWarning(warning, args.path)),
            watchFiles: [...new Set([args.path, ...pipeline.files, ...dependencies(result.messages, 'dependency', 'file')])],
            watchDirs: [...new Set(dependencies(result.messages, 'dir-dependency', 'dir'))],
          };
        } catch (error) {
          return { errors: [toError(error, args.path, css, flavor)] };
        }
      });
    },
  };
}

function dependencies(messages: Message[], type: string, key: 'file' | 'dir'): string[] {
  return messages.filter((message) => message.type === type && typeof message[key] === 'string').map((message) => message[key] as string);
}

interface SyntaxErrorLike extends Error {
  reason: string;
  file?: string;
  line?: number;
  column?: number;
  source?: string;
  plugin?: string;
}

/**
 * Errors are returned to esbuild rather than thrown: a thrown error gets located in this
 * file's own source, a returned one points at the CSS. bundleTemplate turns them into
 * BUILD_FAILED as `file:line:column: reason`; `detail` keeps the original error.
 */
function toError(error: unknown, file: string, css: string, flavor: TailwindFlavor | undefined): esbuild.PartialMessage {
  if (error instanceof Error && error.name === 'CssSyntaxError' && (error as SyntaxErrorLike).line !== undefined) {
    const syntax = error as SyntaxErrorLike;
    const line = syntax.line ?? 1;
    return {
      text: syntax.plugin ? `${syntax.reason} (PostCSS plugin ${syntax.plugin})` : syntax.reason,
      location: { file: syntax.file ?? file, line, column: Math.max((syntax.column ?? 1) - 1, 0), lineText: (syntax.source ?? css).split('\n')[line - 1] },
      detail: error,
    };
  }
  // Not tied to a line of CSS (a missing install, a plugin crash): point at the line that
  // asked for Tailwind, or the top of the file.
  const { line, column } = flavor ? tailwindDirectivePosition(css) : { line: 1, column: 1 };
  const message = error instanceof Error ? error.message : String(error);
  return {
    text: isImprintError(error) ? message : `PostCSS failed on this file: ${message}`,
    location: { file, line, column: column - 1, lineText: css.split('\n')[line - 1] },
    detail: error,
  };
}

function toWarning(warning: Warning, file: string): esbuild.PartialMessage {
  const located = warning.line !== undefined ? { line: warning.line, column: Math.max((warning.column ?? 1) - 1, 0) } : {};
  return { text: warning.plugin ? `${warning.text} (PostCSS plugin ${warning.plugin})` : warning.text, location: { file: warning.node?.source?.input.file ?? file, ...located } };
}
