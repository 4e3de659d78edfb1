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
import { isImprintError } from '../../../core/errors.js';
import { deliverResult, prepareDestination } from '../../deliver-result.js';
import { processEnvironment } from '../../../backend/environment.js';
import { readTextInput } from '../../io/read-text.js';
import { interactive } from '../../ui/interactive.js';
import { commonOptions, outputName, readPropsFile, renderRequest, runningRenderer } from '../common-call.js';
import { parseFastArgs, parseFastGenerateArgs } from '../fast-args.js';
import { askRunningRenderer, RendererLost, type AskedRenderer } from './renderer-client.js';
import { fromWireError, type NailAnswer } from '../wire.js';

export { parseFastArgs, parseFastGenerateArgs };

export const PREVIEW_PROPS_NOTE = `No --props given: rendered with the template's PreviewProps.`;

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
    const renderer = runningRenderer(fast, false, cliEntry);
    if (!renderer) return false;
    const { env } = renderer;
    const destination = prepareDestination(fast.output, 'pdf', outputName(fast));
    const props = readPropsFile(fast.props);
    const options = commonOptions(fast, env);
    const asked = await askRunningRenderer(renderer.spec, renderRequest(fast, props, options, process.cwd()));
    if (!asked) return false;
    prepared = { asked, destination };
  } catch {
    // A bad setting, props file or destination: the full CLI reports it with its own message.
    return false;
  }

  const { asked, destination } = prepared;
  return answerOnRenderer(`Rendering ${fast.ref}`, asked, destination, async () => {
    const rendering = await asked.answer;
    return { result: rendering.result, after: rendering.usedPreviewProps ? PREVIEW_PROPS_NOTE : undefined };
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
  const status = interactive() ? await import('../../ui/status.js') : undefined;
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
  if (answer.after) (status ?? (await import('../../ui/status.js'))).note(answer.after);
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
  const { printError } = await import('../../ui/print-error.js');
  printError(error, processEnvironment());
  process.exitCode = isImprintError(error) ? error.exitCode : 1;
}

/** generate's common form on the running renderer, as fastRender does for render (true: answered). */
async function fastGenerate(args: readonly string[], cliEntry: string): Promise<boolean> {
  const fast = parseFastGenerateArgs(args);
  if (!fast) return false;
  const allowLocal = fast.allowLocal === true;
  let prepared;
  try {
    const renderer = runningRenderer(fast, allowLocal, cliEntry);
    if (!renderer) return false;
    const { defaultName, reportRefusal } = await import('../../commands/generate-common.js');
    // As the command builds them: the destination first, then the HTML, then the options.
    const destination = prepareDestination(fast.output, 'pdf', defaultName(fast));
    const html = await readTextInput(fast.html, 'HTML');
    const options = commonOptions(fast, renderer.env);
    const asked = await askRunningRenderer(renderer.spec, { type: 'generate', source: { html }, options }, reportRefusal(new Set()));
    if (!asked) return false;
    prepared = { asked, destination };
  } catch {
    return false;
  }

  const { asked, destination } = prepared;
  return answerOnRenderer(`Rendering ${fast.html}`, asked, destination, async () => ({ result: (await asked.answer).result }));
}

/**
 * A nail call the renderer ran (nail-client.ts), finished as the thin path finishes its own:
 * the note on PreviewProps, then the error the renderer met (printed, exit code set) or the
 * PDF for stdout, or the outcome line of the file it wrote.
 */
export async function finishNailed(answer: Extract<NailAnswer, { type: 'nailed' }>): Promise<void> {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  if (answer.usedPreviewProps) (await import('../../ui/status.js')).note(PREVIEW_PROPS_NOTE);
  if (answer.error) return printAsCli(fromWireError(answer.error));
  if (answer.pdf !== undefined) {
    try {
      await deliverResult({ format: 'pdf', pdf: Buffer.from(answer.pdf, 'base64') }, { kind: 'stdout' });
    } catch (error) {
      await printAsCli(error);
    }
  } else if (answer.line !== undefined) process.stderr.write(`${answer.line}\n`);
}
