/**
 * The renderer's side of the nail path (client/nail-client.ts): a `render` call sent whole by
 * bin/imprint.js. What the thin path (client/fast-render.ts) would do in the client is done
 * here, by the same functions (fast-args.ts, common-call.ts) on the client's arguments, working
 * folder and environment: the common form only (parseFastArgs), embedded mode with the
 * renderer on, the renderer those settings name being this one (same socket, same key: same
 * settings, version and build), the destination checked, the props file read. Anything that
 * differs, or fails, declines the call with nothing done: the client's thin path or full CLI
 * then runs it and reports what is wrong in its own words.
 *
 * A call taken is rendered on this renderer's engine and its PDF written here, as the client
 * would have written it (write-output.ts: a temp file beside it, then a rename), but only while
 * the client is still connected: a client that went away (Ctrl-C) has its render cancelled and
 * nothing written. The renderer is this user's process; it declines a call whose umask or group
 * differ from its own, so a file it writes is the file the client would have written.
 */
import path from 'node:path';
import { deliverResult, writtenLine, prepareDestination } from '../../deliver-result.js';
import { disposePdf, wholePdf } from '../../../core/spool/spooled-pdf.js';
import { inCi } from '../../../backend/environment.js';
import { packageRoot } from '../../../core/package-root.js';
import type { RenderOptions } from '../../../core/render-request.js';
import type { Destination } from '../../io/write-output.js';
import type { RenderResult } from '../../../core/result-forms.js';
import { parseFastArgs } from '../fast-args.js';
import { commonOptions, outputName, readPropsFile, renderRequest, runningRenderer } from '../common-call.js';
import type { RendererSpec } from '../renderer-target.js';
import { toWireError, type NailAnswer, type NailRequest } from '../wire.js';

/**
 * Variables the checks read from the process's own environment, not from the call's: os.homedir()
 * (HOME), os.tmpdir() (TMPDIR, TMP, TEMP), env-paths (XDG_*). A call whose values differ from the
 * renderer's is declined, so every check sees what it would have seen in the client.
 */
const READ_FROM_PROCESS = ['HOME', 'TMPDIR', 'TMP', 'TEMP', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME'];

export interface NailCall {
  ref: string;
  /** A template file's absolute path. */
  file?: string;
  props: Record<string, unknown> | undefined;
  options: RenderOptions;
  destination: Destination;
  cwd: string;
}

/** The call as the thin path would send it, or why it is declined. */
export function prepareNail(request: NailRequest, spec: RendererSpec): NailCall | { declined: string } {
  const { argv, cwd, env, cli } = request;
  const strings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');
  if (!strings(argv) || typeof cwd !== 'string' || typeof cli !== 'string' || env === null || typeof env !== 'object') return { declined: 'not a nail call' };
  const fast = parseFastArgs(request.argv);
  if (!fast) return { declined: 'not the common form' };
  const differs = READ_FROM_PROCESS.find((name) => env[name] !== process.env[name]);
  if (differs) return { declined: `another ${differs}` };
  // Who may write where (the destination's check, the file's group and mode) is the client's: only the same umask and groups write the same file.
  const groups = (list: readonly number[]) => [...new Set(list)].sort((a, b) => a - b).join();
  if (request.umask !== process.umask() || request.gid !== (process.getegid?.() ?? -1) || !Array.isArray(request.groups) || groups(request.groups) !== groups(process.getgroups?.() ?? [])) {
    return { declined: 'another umask or group' };
  }
  // The client's package is this renderer's: the same version (the key's), read from the same package.json.
  if (path.resolve(request.cli) !== path.join(packageRoot(), 'dist', 'cli.js')) return { declined: 'another installation' };
  // A terminal's progress (a spinner) is drawn by the client: the thin path's.
  if (request.stderrIsTTY && !inCi(env)) return { declined: 'a terminal' };
  // Relative paths (the data folder, the props file, the destination) are the client's: resolved
  // in its folder. Everything below is synchronous, so nothing else runs in that folder.
  const own = process.cwd();
  try {
    process.chdir(request.cwd);
  } catch {
    return { declined: 'its folder cannot be entered' };
  }
  try {
    const renderer = runningRenderer(fast, false, request.cli, env);
    if (!renderer) return { declined: 'not embedded, or the renderer off' };
    if (renderer.spec.key !== spec.key || renderer.spec.paths.socket !== spec.paths.socket) return { declined: 'another renderer' };
    const destination = prepareDestination(fast.output, 'pdf', outputName(fast), request.stdoutIsTTY);
    const props = readPropsFile(fast.props);
    const options = commonOptions(fast, env);
    const { ref, file } = renderRequest(fast, props, options, request.cwd);
    return { ref, file, props, options, destination, cwd: request.cwd };
  } catch (error) {
    // A bad setting, props file or destination: the client's CLI reports it with its own message.
    return { declined: (error as Error).message };
  } finally {
    process.chdir(own);
  }
}

/**
 * The rendered PDF delivered for the client: for its stdout, sent back; to a file, written here
 * while the client is still there, with the line the client shows; a write that fails, the
 * error the client prints.
 */
export async function deliverNail(call: NailCall, rendered: { result: RenderResult; usedPreviewProps: boolean }, gone: AbortSignal): Promise<NailAnswer> {
  const { result, usedPreviewProps } = rendered;
  if (result.format !== 'pdf') throw new Error(`a nail call asks for a PDF, not ${result.format}`);
  // The client's stdout takes the bytes in the answer: a spooled document is read whole for it.
  if (call.destination.kind === 'stdout') return { type: 'nailed', pdf: (await wholePdf(result.pdf)).toString('base64'), usedPreviewProps };
  if (gone.aborted) {
    await disposePdf(result.pdf);
    throw new Error('its CLI went away before the PDF was written');
  }
  let line: string | undefined;
  try {
    line = await deliverResult(result, call.destination);
  } catch (error) {
    return { type: 'nailed', usedPreviewProps, error: toWireError(error) };
  }
  return { type: 'nailed', usedPreviewProps, line: line && writtenLine(result, call.destination.path, call.cwd) };
}
