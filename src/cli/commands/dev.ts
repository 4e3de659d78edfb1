/** `imprint dev [dir]`: a local preview of the templates, re-rendered on every save. */
import fs from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { DEFAULT_RENDER_TIMEOUT_MS } from '../../core/render/deadline.js';
import type { CliContext } from '../context.js';
import type { DevServer } from '../dev/dev-server.js';
import { resolveTemplateFiles } from '../io/template-files.js';
import { devCacheError, devReady, devChecked, devRebuilt, devWatchError } from '../ui/dev-log.js';
import { guideFile } from '../../core/guides.js';

const DEFAULT_DEV_PORT = 4600;

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('use a port number from 0 to 65535 (0: any free port).');
  return port;
}

/** A project made by `imprint init` keeps its templates in templates/; any other folder is taken as it is. */
function templatesFolder(dir: string): string {
  const nested = path.join(dir, 'templates');
  return fs.statSync(nested, { throwIfNoEntry: false })?.isDirectory() ? nested : dir;
}

/** Until Ctrl-C (or a stop from outside): the only way a preview session ends well. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

export function registerDev(program: Command, context: () => CliContext) {
  program
    .command('dev')
    .description('a studio in the browser: edit a template\'s props in a form, see its pages at once and its PDF after; re-rendered on every save')
    .argument('[dir]', 'the project (its templates/ folder) or a folder of templates', '.')
    .option('--port <port>', `the port on 127.0.0.1 (0: any free port)`, parsePort, DEFAULT_DEV_PORT)
    .addHelpText('after', `\nThe studio opens with <Name>.props.json beside a template, else its PreviewProps; fixtures <Name>.<label>.props.json are listed too. See ${guideFile('dev')}.\n\nExamples:\n  $ imprint dev\n  $ imprint dev templates-example/invoice --port 4700`)
    .action(async (dir: string, flags: { port: number }) => {
      const root = templatesFolder(dir);
      const files = resolveTemplateFiles([root], root);
      // The bundler, the TypeScript compiler and the browser pool load with the command that uses them.
      const [{ createBrowserProvider }, { createDevSession }, { startDevServer }, { watchNewTemplates }] = await Promise.all([
        import('../../core/render/browser-provider.js'),
        import('../dev/dev-session.js'),
        import('../dev/dev-server.js'),
        import('../dev/watch-new-templates.js'),
      ]);
      const ctx = context();
      const settings = ctx.browserSettings;
      const browsers = createBrowserProvider({ search: settings.search, runningAsRoot: settings.runningAsRoot, env: settings.env });
      let fail: (error: unknown) => void = () => {};
      const failed = new Promise<never>((_, reject) => (fail = reject));
      let dev: DevServer | undefined;
      const deps = { browser: () => browsers.browser(), timeoutMs: DEFAULT_RENDER_TIMEOUT_MS };
      const session = createDevSession(
        files,
        deps,
        // The cache render and publish use: a template they left as it is previews without a bundle, and what dev builds they reuse.
        ctx.templateCache(),
        {
          changed: (entry) => {
            dev?.publish(entry);
            devRebuilt(entry);
          },
          checked: (entry) => {
            dev?.publish(entry);
            devChecked(entry);
          },
          failed: (error) => fail(error),
          watchError: devWatchError,
          removed: (entry) => dev?.removed(entry.name),
          cacheError: devCacheError,
        },
      );
      const stopWatching = watchNewTemplates(root, (file) => session.added(file), (file) => session.removed(file), devWatchError);
      try {
        dev = await startDevServer({ port: flags.port, root: path.resolve(root), templates: () => session.entries, find: session.find, schemaOf: session.schemaOf, deps });
        devReady(dev.url, files.length);
        void session.start(); // its failures arrive through `failed`
        await Promise.race([untilStopped(), failed]);
      } finally {
        stopWatching();
        await session.close();
        await dev?.close();
        await browsers.close();
      }
    });
}
