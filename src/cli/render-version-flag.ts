/**
 * `imprint render invoice --version 3`: the program's own `-V, --version` (print Imprint's
 * version) is a global option, and commander lets a global option shadow a subcommand's of the
 * same name wherever it appears. So after the `render` subcommand, `--version` is handed to
 * render under the name it declares internally, before commander sees the arguments.
 */
export const RENDER_VERSION_OPTION = '--template-version';

/** Global options that take a value (their value is not the subcommand's name). */
const GLOBAL_WITH_VALUE = new Set(['--data-dir', '--api-url', '--api-key', '--browser']);

export function routeRenderVersionFlag(argv: readonly string[]): string[] {
  const args = argv.slice(2);
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += GLOBAL_WITH_VALUE.has(args[i]!) ? 2 : 1;
  if (args[i] !== 'render') return [...argv];
  const routed = args.map((arg, index) => {
    if (index <= i) return arg;
    if (arg === '--version') return RENDER_VERSION_OPTION;
    if (arg.startsWith('--version=')) return RENDER_VERSION_OPTION + arg.slice('--version'.length);
    return arg;
  });
  return [...argv.slice(0, 2), ...routed];
}
