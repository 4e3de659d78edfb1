/** What `imprint dev` says in the terminal: where the preview is, and each rebuild's outcome. */
import chalk from 'chalk';
import { IMPACTS } from '../../core/check/a11y/findings.js';
import type { TemplateEntry } from '../dev/dev-session.js';

export function devReady(url: string, count: number): void {
  process.stdout.write(`imprint dev: ${count} ${count === 1 ? 'template' : 'templates'} at ${url} (Ctrl-C to stop)\n`);
}

export function devRebuilt(entry: TemplateEntry): void {
  const preview = entry.preview;
  if (entry.building || !preview) return;
  const time = chalk.dim(`${(preview.ms / 1000).toFixed(1)} s${preview.fromCache ? ', build from the template cache' : ''}`);
  if (preview.ok) {
    const problems = preview.problems.length ? chalk.yellow(` · ${preview.problems.length} problem(s), see the page`) : '';
    process.stderr.write(`${chalk.green('✔')} ${entry.name} rendered with ${preview.props} ${time}${problems}\n`);
  } else {
    process.stderr.write(`${chalk.red('✖')} ${entry.name}: ${preview.error?.split('\n')[0]} ${time}\n`);
  }
}

export function devCacheError(entry: TemplateEntry, error: unknown): void {
  process.stderr.write(`${chalk.yellow('⚠')} ${entry.name}: its build could not be kept in the template cache (${(error instanceof Error ? error.message : String(error)).split('\n')[0]}); a render of it will bundle it again.\n`);
}

export function devWatchError(error: Error): void {
  process.stderr.write(`${chalk.yellow('⚠')} Cannot watch a file (${error.message}); saves to it may not reload the preview.\n`);
}

/** The last accessibility line said per template: a save that changes nothing of it says nothing. */
const lastChecked = new WeakMap<TemplateEntry, string>();

/** Most severe first. */
const IMPACT_ORDER = [...IMPACTS].reverse();

/** A preview's accessibility findings (listed in the studio), said when they changed. */
export function devChecked(entry: TemplateEntry): void {
  const a11y = entry.a11y;
  if (!a11y || a11y.status === 'checking') return;
  let line: string;
  if (a11y.status === 'failed') line = `${chalk.red('✖')} ${entry.name}: the accessibility check failed: ${a11y.error?.split('\n')[0]}`;
  else if (a11y.findings.length === 0) line = `${chalk.green('✔')} ${entry.name}: no accessibility findings`;
  else {
    const counts = IMPACT_ORDER.map((impact) => [impact, a11y.findings.filter((f) => f.impact === impact).length] as const).filter(([, n]) => n > 0);
    const n = a11y.findings.length;
    line = `${chalk.yellow('!')} ${entry.name}: ${n} accessibility ${n === 1 ? 'finding' : 'findings'} (${counts.map(([impact, count]) => `${count} ${impact}`).join(', ')}), listed in the studio`;
  }
  if (lastChecked.get(entry) === line) return;
  lastChecked.set(entry, line);
  process.stderr.write(`${line}\n`);
}
