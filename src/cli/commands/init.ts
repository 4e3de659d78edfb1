/**
 * `imprint init [dir]`: a template project that renders straight away, and passes
 * `tsc --noEmit --strict` once `npm install` gave it its packages. The files come from
 * src/cli/init-template; package.json and tsconfig.json are written here because they name the
 * versions of the imprint that runs. Nothing written names a path on this machine: the project
 * is committed and checked out elsewhere (a teammate's clone, CI). Rendering needs no
 * `npm install`: the bundler falls back to imprint's own React, and `imprint/react` always
 * resolves to the components of the imprint that bundles.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ImprintError } from '../../core/errors.js';
import { imprintManifest, packageRoot } from '../../core/package-root.js';
import { imprintVersion } from '../../core/version.js';
import { done, note } from '../ui/status.js';

const TEMPLATE_DIR = () => path.join(packageRoot(), 'src', 'cli', 'init-template');

/** npm leaves `.gitignore` out of published packages, so dot-names are stored without their dot. */
const RENAMED: Record<string, string> = { gitignore: '.gitignore', github: '.github' };

/** A folder that holds nothing but version control is as good as empty. */
const IGNORABLE = new Set(['.git', '.DS_Store']);

function ourVersions(): Record<string, string> {
  const manifest = imprintManifest();
  return { ...manifest.devDependencies, ...manifest.dependencies };
}

function packageJson(dir: string): object {
  const versions = ourVersions();
  const name = path.basename(path.resolve(dir)).toLowerCase().replace(/[^a-z0-9-_.]+/g, '-').replace(/^[-_.]+/, '') || 'imprint-templates';
  return {
    name,
    private: true,
    type: 'module',
    scripts: {
      render: 'imprint render templates/Invoice.tsx --props templates/Invoice.props.json -o invoice.pdf',
      dev: 'imprint dev',
      check: 'imprint check',
      snapshots: 'imprint check --snapshot snapshots',
      'snapshots:update': 'imprint check --snapshot snapshots --update',
    },
    // The project's React renders its templates (the bundler takes it before imprint's own): the versions imprint is built with.
    dependencies: { react: versions.react, 'react-dom': versions['react-dom'] },
    // The imprint that wrote the project, for `npx imprint` and CI; its `imprint/react` and
    // `imprint/client` types, React's for JSX, and the compiler `imprint check` type-checks with.
    devDependencies: { imprint: `^${imprintVersion()}`, '@types/react': versions['@types/react'], typescript: versions.typescript },
  };
}

function tsconfigJson(): object {
  return {
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      jsx: 'react-jsx',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      // What templates import besides code (CSS, images, fonts, text files), typed as the bundler
      // builds it. `imprint/react` and `imprint/einvoice` come from the installed imprint's exports.
      types: ['imprint/client'],
    },
    include: ['templates'],
  };
}

function ensureEmpty(dir: string): void {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).filter((entry) => !IGNORABLE.has(entry.name));
  if (entries.length > 0) {
    throw new ImprintError('USAGE', `${dir} is not empty. Give a new folder, e.g. \`imprint init my-templates\`.`);
  }
}

function copyTree(from: string, to: string, written: string[]): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const target = path.join(to, RENAMED[entry.name] ?? entry.name);
    if (entry.isDirectory()) copyTree(path.join(from, entry.name), target, written);
    else {
      fs.copyFileSync(path.join(from, entry.name), target, fs.constants.COPYFILE_EXCL);
      written.push(target);
    }
  }
}

function scaffoldProject(dir: string): string[] {
  fs.mkdirSync(dir, { recursive: true });
  ensureEmpty(dir);
  const written: string[] = [];
  copyTree(TEMPLATE_DIR(), dir, written);
  for (const [file, content] of [
    ['package.json', packageJson(dir)],
    ['tsconfig.json', tsconfigJson()],
  ] as const) {
    const target = path.join(dir, file);
    fs.writeFileSync(target, `${JSON.stringify(content, null, 2)}\n`, { flag: 'wx' });
    written.push(target);
  }
  return written.sort();
}

export function registerInit(program: Command) {
  program
    .command('init')
    .description('create a template project: package.json, tsconfig, templates/ with an example, its static folder and a props file, a snapshots/ folder and a CI workflow that checks them')
    .argument('[dir]', 'the folder to create (must be empty or new)', '.')
    .addHelpText('after', '\nExamples:\n  $ imprint init my-templates\n  $ cd my-templates && imprint dev')
    .action(async (dir: string) => {
      let written: string[];
      try {
        written = scaffoldProject(dir);
      } catch (error) {
        if (error instanceof ImprintError) throw error;
        throw new ImprintError('OUTPUT_FAILED', `Cannot create the project in ${dir}: ${(error as Error).message}`, { cause: error });
      }
      for (const file of written) done(`Created ${path.relative(process.cwd(), file) || file}`);
      const cd = path.resolve(dir) === process.cwd() ? '' : `cd ${dir} && `;
      note(`Render it: ${cd}imprint render templates/Invoice.tsx --props templates/Invoice.props.json -o invoice.pdf`);
      note(`Preview it live: ${cd}imprint dev`);
      note(`Record its snapshots for CI (.github/workflows/templates.yml): ${cd}imprint check --snapshot snapshots --update`);
    });
}
