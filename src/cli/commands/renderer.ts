/** `imprint renderer status|start|stop`: the warm background renderer, by hand (docs/renderer.md). */
import fs from 'node:fs';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { isAlive, lockHolder } from '../renderer/renderer-lock.js';
import { openRenderer, rendererStatus, stopRenderer } from '../renderer/client/renderer-client.js';
import { rendererTarget } from '../renderer/client/use-renderer.js';
import { rendererPaths, runtimeDirPath } from '../renderer/runtime-dir.js';
import { done, note } from '../ui/status.js';

/** Every renderer's socket name in the runtime folder (other settings, other builds). */
function rendererNames(dir: string): string[] {
  const names = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  const found = new Set<string>();
  for (const file of names) {
    const match = /^r-([0-9a-f]+)\.(sock|lock)$/.exec(file);
    if (match) found.add(match[1]);
  }
  return [...found];
}

const describe = (pid: number, served: number, idleMs: number, since: string) =>
  `Renderer running: pid ${pid}, since ${since}, ${served} render${served === 1 ? '' : 's'} served, exits after ${idleMs / 1000} s idle.`;

export function registerRenderer(program: Command, context: () => CliContext) {
  const renderer = program
    .command('renderer')
    .description('the warm background renderer that serves embedded render and generate (on by default; --no-renderer or IMPRINT_RENDERER=off to skip it)')
    .addHelpText(
      'after',
      [
        '',
        'The first embedded `imprint render` starts a renderer that keeps Chromium warm; later calls',
        'with the same settings reuse it. It exits after IMPRINT_RENDERER_IDLE (default 60s) without work.',
        '',
        'Examples:',
        '  $ imprint renderer status --json',
        '  $ IMPRINT_RENDERER_IDLE=10m imprint renderer start   # before a long shell loop',
        '  $ imprint renderer stop --all',
      ].join('\n'),
    );

  renderer
    .command('status')
    .description("whether the renderer for this data folder and browser is running, and its pid")
    .option('--json', 'print {"running", "pid", ...} as JSON')
    .option('--allow-local', "the renderer of generate --allow-local's pages")
    .action(async (flags: { json?: boolean; allowLocal?: boolean }) => {
      const target = rendererTarget(context(), flags.allowLocal === true);
      const status = await rendererStatus(target.spec);
      const current = status !== undefined && status.key === target.spec.key;
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ running: Boolean(status), current, socket: target.spec.paths.socket, ...(status ?? {}) })}\n`);
        return;
      }
      if (!status) note(`No renderer running for ${target.spec.settings.dataDir}. The next embedded render starts one.`);
      else note(`${describe(status.pid, status.served, status.idleMs, status.startedAt)}${current ? '' : ' It is of another build: the next render replaces it.'}`);
      if (status?.templateFiles) note(`Template files: ${status.templateFiles.built} bundled, ${status.templateFiles.reused} from the template cache (imprint cache --help).`);
    });

  renderer
    .command('start')
    .description('start the renderer now (the first render would otherwise start it); prints its pid')
    .option('--allow-local', "the renderer of generate --allow-local's pages")
    .action(async (flags: { allowLocal?: boolean }) => {
      const connection = await openRenderer(rendererTarget(context(), flags.allowLocal === true));
      connection.close();
      done(describe(connection.status.pid, connection.status.served, connection.status.idleMs, connection.status.startedAt));
    });

  renderer
    .command('stop')
    .description('stop the renderer (it also stops by itself when idle)')
    .option('--all', 'every renderer of this user: other data folders, browsers and builds')
    .action(async (flags: { all?: boolean }) => {
      const ctx = context();
      const dir = runtimeDirPath(ctx.env);
      const targets = flags.all
        ? rendererNames(dir).map((name) => ({ paths: rendererPaths(dir, name) }))
        : [false, true].map((allowLocal) => rendererTarget(ctx, allowLocal).spec);
      let stopped = 0;
      for (const target of targets) {
        const pid = await stopRenderer(target);
        if (pid !== undefined) {
          stopped++;
          done(`Stopped the renderer (pid ${pid}).`);
        } else if (!isAlive(lockHolder(target.paths.lock) ?? 0)) {
          // Left by a renderer that died: nothing answers there.
          fs.rmSync(target.paths.socket, { force: true });
          fs.rmSync(target.paths.lock, { force: true });
        }
      }
      if (stopped === 0) note('No renderer was running.');
    });
}
