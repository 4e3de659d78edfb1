/**
 * The thin path of `imprint render <id>` (bin/imprint.js, built alone into dist/fast-render.js):
 * when a warm renderer for this CLI's settings is already running, the call is sent to its
 * socket without loading the CLI program (commander, every command, the engine, the egress
 * proxy): a shell loop of renders pays Node's start, a few small modules and the render.
 *
 * It takes only the common form, `render <id> [-p|--props <file>] [-o|--output <file|->]
 * [--deterministic] [--embedded] [--data-dir <dir>] [--browser <path>]`, and declines
 * (returns false, having written nothing) whenever anything differs: another flag, a template
 * file, a pinned version, props from stdin, remote mode, the renderer off, no renderer running
 * or one of other settings, a props file or destination the CLI would refuse, a renderer lost
 * mid-call. The full CLI then runs the call as it always does, with its own messages. The
 * request it sends is the one the render command builds (commands/render.ts), computed by the
 * same functions, to the renderer the command would reach (the same key), so the PDF is the same.
 *
 * `imprint generate --html <file>` takes the same path, in its common form: `generate --html
 * <file> [-o|--output <file|->] [--deterministic] [--embedded] [--data-dir <dir>] [--browser
 * <path>] [--allow-local]` (no --url, no stdin, no other flag), with the request the generate
 * command builds (commands/generate.ts) and its warnings for the page's refused requests.
 */
import fs from 'node:fs';
import { parseProps } from '../../core/render-request.js';
import { isImprintError } from '../../core/errors.js';
import { browserSettings } from '../browser-settings.js';
import { openLoginStore } from '../config/login-store.js';
import { chooseMode, resolveConnection, type ModeFlags } from '../config/mode.js';
import { resolveDataDir } from '../data-dir.js';
import { deliverResult, prepareDestination } from '../deliver-result.js';
import { documentOptions } from '../document-options.js';
import { envText, processEnvironment } from '../environment.js';
import { readTextInput } from '../io/read-text.js';
import { isTemplateFile } from '../template-ref.js';
import { interactive } from '../ui/interactive.js';
import { askRunningRenderer, RendererLost, type AskedRenderer } from './renderer-client.js';
import { rendererEnabled } from './renderer-settings.js';
import { rendererTargetFrom } from './renderer-target.js';

interface FastArgs {
  ref: string;
  props?: string;
  output?: string;
  deterministic?: boolean;
  embedded?: boolean;
  dataDir?: string;
  browser?: string;
}

const VALUE_OPTIONS: Record<string, 'props' | 'output' | 'dataDir' | 'browser'> = {
  '-p': 'props',
  '--props': 'props',
  '-o': 'output',
  '--output': 'output',
  '--data-dir': 'dataDir',
  '--browser': 'browser',
};

/**
 * The words and flags after a command, when every flag is one of `values` (with its value, as
 * `--name value` or `--name=value`) or one of `switches`, each at most once; undefined
 * otherwise. A value missing, empty or looking like a flag: commander decides what it means.
 */
function scanArgs<V extends string, S extends string>(
  args: readonly string[],
  values: Record<string, V>,
  switches: Record<string, S>,
): { fields: Partial<Record<V, string> & Record<S, true>>; words: string[] } | undefined {
  const fields: Partial<Record<string, string | true>> = {};
  const words: string[] = [];
  for (let i = 1; i < args.length; i++) {
    const arg = args[i];
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = equals > 0 ? arg.slice(0, equals) : arg;
    if (Object.hasOwn(values, name)) {
      const value = equals > 0 ? arg.slice(equals + 1) : args[++i];
      const field = values[name];
      if (value === undefined || value === '' || (value.startsWith('-') && value !== '-') || fields[field] !== undefined) return undefined;
      fields[field] = value;
    } else if (Object.hasOwn(switches, arg) && fields[switches[arg]] === undefined) fields[switches[arg]] = true;
    else if (arg.startsWith('-')) return undefined;
    else words.push(arg);
  }
  return { fields: fields as Partial<Record<V, string> & Record<S, true>>, words };
}

/** The arguments after `render`, when they are all of the common form; undefined otherwise. */
export function parseFastArgs(args: readonly string[]): FastArgs | undefined {
  if (args[0] !== 'render') return undefined;
  const scanned = scanArgs(args, VALUE_OPTIONS, { '--deterministic': 'deterministic', '--embedded': 'embedded' });
  if (!scanned || scanned.words.length !== 1 || scanned.fields.props === '-') return undefined;
  const ref = scanned.words[0];
  // A pinned version (invoice@3) and a template file take the full command's path.
  if (ref.includes('@') || isTemplateFile(ref)) return undefined;
  return { ref, ...scanned.fields };
}

interface FastGenerateArgs {
  html: string;
  output?: string;
  deterministic?: boolean;
  embedded?: boolean;
  dataDir?: string;
  browser?: string;
  allowLocal?: boolean;
}

const GENERATE_VALUE_OPTIONS: Record<string, 'html' | 'output' | 'dataDir' | 'browser'> = {
  '--html': 'html',
  '-o': 'output',
  '--output': 'output',
  '--data-dir': 'dataDir',
  '--browser': 'browser',
};

/** The arguments after `generate`, when they are all of its common form (HTML from a file); undefined otherwise. */
export function parseFastGenerateArgs(args: readonly string[]): FastGenerateArgs | undefined {
  if (args[0] !== 'generate') return undefined;
  const scanned = scanArgs(args, GENERATE_VALUE_OPTIONS, { '--deterministic': 'deterministic', '--embedded': 'embedded', '--allow-local': 'allowLocal' });
  // generate takes no word; HTML from stdin, or none (a --url), takes the full command's path.
  if (!scanned || scanned.words.length > 0) return undefined;
  const { html } = scanned.fields;
  if (html === undefined || html === '-') return undefined;
  return { ...scanned.fields, html };
}

/** The running renderer the command would reach in embedded mode, or undefined (then the full CLI runs). */
async function runningRenderer(fast: { embedded?: boolean; dataDir?: string; browser?: string }, allowLocal: boolean, cliEntry: string) {
  const env = processEnvironment();
  const flags: ModeFlags = { embedded: fast.embedded };
  const mode = chooseMode(flags, env, resolveConnection(flags, env, openLoginStore(envText(env, 'IMPRINT_CONFIG_DIR')).read()));
  if (mode !== 'embedded' || !rendererEnabled(env, undefined)) return undefined;
  const build = String(fs.statSync(cliEntry, { throwIfNoEntry: false })?.mtimeMs ?? '');
  const target = rendererTargetFrom({ dataDir: resolveDataDir({ dataDir: fast.dataDir }, env), browser: browserSettings(fast.browser, env), allowLocal, build, env });
  return { env, spec: target.spec };
}

/**
 * Renders on the running renderer and writes the result as the render command does; true when
 * the call is answered (a document written, or the renderer's error printed with its exit
 * code), false when the full CLI must run it. `cliEntry`: dist/cli.js, whose mtime is the
 * build a renderer must match (cli-runtime.ts).
 */
export async function fastRender(args: readonly string[], cliEntry: string): Promise<boolean> {
  if (args[0] === 'generate') return fastGenerate(args, cliEntry);
  const fast = parseFastArgs(args);
  if (!fast) return false;
  let prepared;
  try {
    const renderer = await runningRenderer(fast, false, cliEntry);
    if (!renderer) return false;
    const { env } = renderer;
    const destination = prepareDestination(fast.output, 'pdf', fast.ref);
    // As readJsonInput reads it; a file it cannot read or parse is declined, and the CLI names the error.
    const props = fast.props === undefined ? undefined : parseProps(JSON.parse(fs.readFileSync(fast.props, 'utf8')));
    const options = { format: 'pdf' as const, ...documentOptions({ deterministic: fast.deterministic }, envText(env, 'SOURCE_DATE_EPOCH')) };
    const asked = await askRunningRenderer(renderer.spec, { type: 'render', ref: fast.ref, props, options });
    if (!asked) return false;
    prepared = { asked, destination };
  } catch {
    // A bad setting, props file or destination: the full CLI reports it with its own message.
    return false;
  }

  const { asked, destination } = prepared;
  return answerOnRenderer(`Rendering ${fast.ref}`, asked, destination, async () => {
    const rendering = await asked.answer;
    return { result: rendering.result, after: rendering.usedPreviewProps ? `No --props given: rendered with the template's PreviewProps.` : undefined };
  });
}

/**
 * The common end of both thin commands: the renderer's answer (the request went with the hello) awaited under a progress step, then
 * the PDF delivered as the full CLI delivers it. False when the renderer went away (the full
 * CLI then renders it, in process or on a new renderer); true once the command is answered,
 * its error printed and its exit code set as the full CLI would.
 */
async function answerOnRenderer(
  label: string,
  connection: Pick<AskedRenderer, 'close'>,
  destination: Parameters<typeof deliverResult>[1],
  call: () => Promise<{ result: Parameters<typeof deliverResult>[0]; after?: string }>,
): Promise<boolean> {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  // The progress UI (chalk, a spinner) loads only for a terminal; elsewhere the outcome line is
  // plain text, as status.ts writes it there, and a shell loop's call loads none of it.
  const status = interactive() ? await import('../ui/status.js') : undefined;
  const step = status?.startStep(label);
  let answer;
  try {
    answer = await call();
  } catch (error) {
    step?.stop();
    if (error instanceof RendererLost) return false;
    // The renderer's answer to this document (bad props, a template that throws): what the CLI would print.
    await printAsCli(error);
    return true;
  } finally {
    connection.close();
  }
  step?.stop();
  if (answer.after) (status ?? (await import('../ui/status.js'))).note(answer.after);
  try {
    const written = await deliverResult(answer.result, destination);
    if (written) {
      if (status) status.done(written);
      else process.stderr.write(`${written}\n`);
    }
  } catch (error) {
    await printAsCli(error);
  }
  return true;
}

async function printAsCli(error: unknown): Promise<void> {
  const { printError } = await import('../ui/print-error.js');
  printError(error);
  process.exitCode = isImprintError(error) ? error.exitCode : 1;
}

/** generate's common form on the running renderer, as fastRender does for render (true: answered). */
async function fastGenerate(args: readonly string[], cliEntry: string): Promise<boolean> {
  const fast = parseFastGenerateArgs(args);
  if (!fast) return false;
  const allowLocal = fast.allowLocal === true;
  let prepared;
  try {
    const renderer = await runningRenderer(fast, allowLocal, cliEntry);
    if (!renderer) return false;
    const { defaultName, reportRefusal } = await import('../commands/generate-common.js');
    // As the command builds them: the destination first, then the HTML, then the options.
    const destination = prepareDestination(fast.output, 'pdf', defaultName(fast));
    const html = await readTextInput(fast.html, 'HTML');
    const options = { format: 'pdf' as const, ...documentOptions({ deterministic: fast.deterministic }, envText(renderer.env, 'SOURCE_DATE_EPOCH')) };
    const asked = await askRunningRenderer(renderer.spec, { type: 'generate', source: { html }, options }, reportRefusal(new Set()));
    if (!asked) return false;
    prepared = { asked, destination };
  } catch {
    return false;
  }

  const { asked, destination } = prepared;
  return answerOnRenderer(`Rendering ${fast.html}`, asked, destination, async () => ({ result: (await asked.answer).result }));
}
