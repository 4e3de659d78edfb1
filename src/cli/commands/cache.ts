/** `imprint cache info|clear`: the local template cache in the data folder (backend/template-cache/). */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { formatBytes } from '../../core/limits/format-bytes.js';
import { TEMPLATE_CACHE_SIZE_ENV, templateCacheBytes, templateCacheDir } from '../../backend/template-cache/cache-settings.js';
import type { CliContext } from '../context.js';
import { done, note } from '../ui/status.js';

/** The cache's files and their total size (temp files of a write under way left out). */
function usage(dir: string): { entries: number; bytes: number } {
  let entries = 0;
  let bytes = 0;
  for (const kind of ['index', 'entries']) {
    const folder = path.join(dir, kind);
    for (const name of fs.existsSync(folder) ? fs.readdirSync(folder) : []) {
      if (name.startsWith('.')) continue;
      const stat = fs.statSync(path.join(folder, name), { throwIfNoEntry: false });
      if (!stat?.isFile()) continue;
      bytes += stat.size;
      if (kind === 'entries') entries++;
    }
  }
  return { entries, bytes };
}

export function registerCache(program: Command, context: () => CliContext) {
  const cache = program
    .command('cache')
    .description('the cache of local .tsx templates: their bundles and props schemas, kept by content in the data folder')
    .addHelpText(
      'after',
      [
        '',
        'A template file rendered, batched, published or previewed by `imprint dev` is bundled once',
        'and kept under a hash of everything it was built from (the template, its imports, CSS, static',
        "files, the PostCSS and Tailwind configs, its packages' versions, Imprint's version): any",
        'change to one of them rebuilds it; nothing else does. The folder is <data folder>/template-cache;',
        `the files used longest ago are dropped once it holds more than ${TEMPLATE_CACHE_SIZE_ENV} (default 256MiB).`,
        'Clearing it is always safe: the next render builds again.',
        '',
        'Examples:',
        '  $ imprint cache info',
        '  $ imprint cache clear',
        `  $ ${TEMPLATE_CACHE_SIZE_ENV}=50MiB imprint render ./Invoice.tsx`,
      ].join('\n'),
    );

  cache
    .command('info')
    .description('where the cache is, how much it holds and its bound')
    .option('--json', 'print {"folder", "entries", "bytes", "maxBytes"} as JSON')
    .action((flags: { json?: boolean }) => {
      const ctx = context();
      const folder = templateCacheDir(ctx.dataDir);
      const maxBytes = templateCacheBytes(ctx.env);
      const { entries, bytes } = usage(folder);
      if (flags.json) process.stdout.write(`${JSON.stringify({ folder, entries, bytes, maxBytes })}\n`);
      else note(`${folder}: ${entries} template build${entries === 1 ? '' : 's'}, ${formatBytes(bytes)} of at most ${formatBytes(maxBytes)} (${TEMPLATE_CACHE_SIZE_ENV}).`);
    });

  cache
    .command('clear')
    .description('remove every kept template build; the next render of each file bundles it again')
    .action(() => {
      const folder = templateCacheDir(context().dataDir);
      const { entries, bytes } = usage(folder);
      fs.rmSync(folder, { recursive: true, force: true });
      done(`Cleared ${folder} (${entries} template build${entries === 1 ? '' : 's'}, ${formatBytes(bytes)}).`);
    });
}
