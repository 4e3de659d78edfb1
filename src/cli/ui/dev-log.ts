/** What `imprint dev` says in the terminal: where the preview is, and each rebuild's outcome. */
import chalk from 'chalk';
import type { TemplateEntry } from '../dev/dev-session.js';

export function devReady(url: string, count: number): void {
  process.stdout.write(`imprint dev: ${count} ${count === 1 ? 'template' : 'templates'} at ${url} (Ctrl-C to stop)\n`);
}

export function devRebuilt(entry: TemplateEntry): void {
  const preview = entry.preview;
  if (entry.building || !preview) return;
  const time = chalk.dim(`${(preview.ms / 1000).toFixed(1)} s`);
  if (preview.ok) {
    const problems = preview.problems.length ? chalk.yellow(` · ${preview.problems.length} problem(s), see the page`) : '';
    process.stderr.write(`${chalk.green('✔')} ${entry.name} rendered with ${preview.props} ${time}${problems}\n`);
  } else {
    process.stderr.write(`${chalk.red('✖')} ${entry.name}: ${preview.error?.split('\n')[0]} ${time}\n`);
  }
}

export function devWatchError(error: Error): void {
  process.stderr.write(`${chalk.yellow('⚠')} Cannot watch a file (${error.message}); saves to it may not reload the preview.\n`);
}
