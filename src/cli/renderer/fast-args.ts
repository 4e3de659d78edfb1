/**
 * Which calls the fast paths take (client/fast-render.ts, client/nail-client.ts, process/nail-serve.ts): the common
 * forms of `render <id|file.tsx>` and `generate --html <file>`, whose flags are all known. Its own file,
 * so the nail client (CommonJS, loaded before anything else) scans a call as the thin path does.
 */
import { isTemplateFile } from '../../backend/template-ref.js';

/**
 * The accessibility switches (cli/accessibility-flags.ts) the common form takes: --no-tagged is
 * how a bulk run asks for the smaller, faster PDF, and without it here such a run left the warm
 * renderer for the whole CLI on every call (bench/README.md, --no-tagged). Each spelling of a
 * switch and its --no- form given together: the full command decides (commander's rule).
 */
const ACCESSIBILITY_SWITCHES = { '--tagged': 'tagged', '--no-tagged': 'untagged', '--outline': 'outline', '--no-outline': 'noOutline' } as const;

interface AccessibilitySwitches {
  tagged?: boolean;
  outline?: boolean;
}

type SwitchFields = Partial<Record<(typeof ACCESSIBILITY_SWITCHES)[keyof typeof ACCESSIBILITY_SWITCHES], true>>;

/** The switches as request fields; undefined when a switch and its --no- form were both given. */
function accessibilitySwitches(fields: SwitchFields): AccessibilitySwitches | undefined {
  if ((fields.tagged && fields.untagged) || (fields.outline && fields.noOutline)) return undefined;
  const switches: AccessibilitySwitches = {};
  if (fields.tagged || fields.untagged) switches.tagged = Boolean(fields.tagged);
  if (fields.outline || fields.noOutline) switches.outline = Boolean(fields.outline);
  return switches;
}

export interface FastArgs extends AccessibilitySwitches {
  ref: string;
  /** The ref is a template file (a path), rendered from the local template cache. */
  file?: boolean;
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
  const scanned = scanArgs(args, VALUE_OPTIONS, { '--deterministic': 'deterministic', '--embedded': 'embedded', ...ACCESSIBILITY_SWITCHES });
  if (!scanned || scanned.words.length !== 1 || scanned.fields.props === '-') return undefined;
  const { tagged, untagged, outline, noOutline, ...fields } = scanned.fields;
  const accessibility = accessibilitySwitches({ tagged, untagged, outline, noOutline });
  if (!accessibility) return undefined;
  const ref = scanned.words[0];
  if (isTemplateFile(ref)) return { ref, file: true, ...fields, ...accessibility };
  // A pinned version (invoice@3) takes the full command's path.
  if (ref.includes('@')) return undefined;
  return { ref, ...fields, ...accessibility };
}

export interface FastGenerateArgs extends AccessibilitySwitches {
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
  const scanned = scanArgs(args, GENERATE_VALUE_OPTIONS, { '--deterministic': 'deterministic', '--embedded': 'embedded', '--allow-local': 'allowLocal', ...ACCESSIBILITY_SWITCHES });
  // generate takes no word; HTML from stdin, or none (a --url), takes the full command's path.
  if (!scanned || scanned.words.length > 0) return undefined;
  const { tagged, untagged, outline, noOutline, html, ...fields } = scanned.fields;
  const accessibility = accessibilitySwitches({ tagged, untagged, outline, noOutline });
  if (!accessibility || html === undefined || html === '-') return undefined;
  return { ...fields, ...accessibility, html };
}
