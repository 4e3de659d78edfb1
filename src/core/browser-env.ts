/**
 * The environment Chromium is started with. A page cannot read its browser's environment
 * directly, but a browser exploit, a crash dump or a child process can, and a service's
 * environment is where its secrets live (API keys, database URLs with passwords, cloud
 * credentials). So Chromium gets only the variables it needs to run, chosen by name (an
 * allow-list: a secret under a name nobody thought of is still left out), and of those none
 * whose name looks like a secret either.
 *
 * Both faces start browsers with it: the CLI (embedded mode and `serve`) and the server,
 * which applies it again to whatever environment it is handed.
 */

/** Exact names Chromium (and the libraries it loads: fontconfig, NSS, glib) reads. */
const NEEDED = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'FONTCONFIG_FILE',
  'FONTCONFIG_PATH',
  'LD_LIBRARY_PATH', // Chromium builds unpacked outside the system's library paths
  'CHROME_DEVEL_SANDBOX',
]);

/** Families of names: locale categories and the XDG base directories. */
const NEEDED_PREFIXES = ['LC_', 'XDG_'];

/** Whatever a name says, these are never passed: the service's own settings and anything secret-like. */
const SECRET_LIKE = /^IMPRINT_|KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|SESSION|COOKIE|PRIVATE/i;

export function isPassedToBrowser(name: string): boolean {
  if (SECRET_LIKE.test(name)) return false;
  return NEEDED.has(name) || NEEDED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** The part of `env` Chromium may see. */
export function browserEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && isPassedToBrowser(name)) kept[name] = value;
  }
  return kept;
}
