/**
 * A project's own PostCSS config (postcss.config.*, .postcssrc*, or a "postcss" key in its
 * package.json), looked for in the project folder only, so a config in a parent folder (a home
 * directory, imprint's own checkout) never changes how a template builds.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AcceptedPlugin, ProcessOptions } from 'postcss';
import { ImprintError } from '../errors.js';
import { CSS_CONFIG_NAMES, configStamp } from './config-stamp.js';

export interface ProjectPostcssConfig {
  file: string;
  plugins: AcceptedPlugin[];
  options: ProcessOptions;
}

const CONFIG_NAME = /^(?:\.postcssrc(?:\.(?:json|ya?ml|[cm]?[jt]s))?|postcss\.config\.[cm]?[jt]s)$/;
const presence = new Map<string, boolean>();

/**
 * Cheap and cached: one directory listing per project and state of its config files
 * (config-stamp.ts: a config added later is seen by a long-lived process), so plain CSS never
 * loads the config loader.
 */
export function hasPostcssConfig(projectDir: string): boolean {
  const key = `${projectDir}\0${configStamp(projectDir)}`;
  let found = presence.get(key);
  if (found === undefined) {
    const names = fs.readdirSync(projectDir, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name);
    found = names.some((name) => CONFIG_NAME.test(name)) || (names.includes('package.json') && packageJsonHasPostcss(projectDir));
    presence.set(key, found);
  }
  return found;
}

function packageJsonHasPostcss(projectDir: string): boolean {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(projectDir, 'package.json'), 'utf8'));
    return manifest !== null && typeof manifest === 'object' && 'postcss' in manifest;
  } catch {
    return false; // an unreadable package.json is reported by whoever needs it, not by the CSS step
  }
}

export async function loadPostcssConfig(projectDir: string): Promise<ProjectPostcssConfig> {
  const { default: postcssrc } = await import('postcss-load-config');
  // postcss-load-config imports the config with a query that busts the ES module cache, but a
  // CommonJS config is kept in Node's require cache by its path: a long-lived process (the warm
  // renderer) loading an edited config (a new stamp, config-stamp.ts) would get the old one.
  const { cache } = createRequire(path.join(projectDir, 'package.json'));
  for (const name of CSS_CONFIG_NAMES) delete cache[path.join(projectDir, name)];
  try {
    // `env` is given so postcss-load-config does not set process.env.NODE_ENV itself;
    // templates are always bundled for production.
    const config = await postcssrc({ cwd: projectDir, env: 'production' }, projectDir, { stopDir: projectDir });
    // Plugin creators left uncalled (`plugins: { x: {} }` or `[require('x')]`) are called
    // here, as PostCSS itself would, so a Tailwind entry can be recognised by its name.
    const plugins = config.plugins.map((entry) => {
      const unwrapped = (entry as { default?: unknown }).default ?? entry;
      const creator = unwrapped as (() => AcceptedPlugin) & { postcss?: unknown };
      return (typeof creator === 'function' && creator.postcss === true ? creator() : unwrapped) as AcceptedPlugin;
    });
    return { file: config.file, plugins, options: config.options };
  } catch (error) {
    throw new ImprintError(
      'BUILD_FAILED',
      `The project's PostCSS config in ${projectDir} could not be loaded: ${(error as Error).message.split('\n')[0]}. Fix the config, or install the plugins it names in the project.`,
      { cause: error },
    );
  }
}
