/**
 * The environment of the local layer and the faces over it: the one module that reads
 * process.env. Everything else is handed the variables (the CLI's context holds them, the library
 * reads them once per instance), so every variable is read by the same rules: empty counts as
 * unset, on/off is strict, and a value that cannot be read is a usage error naming the variable
 * and the flag it stands for.
 */
import { ImprintError, isImprintError } from '../core/errors.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** This process's variables. */
export const processEnvironment = (): Environment => process.env;

/** A CI run (CI set): no spinners and no prompts, whatever the terminal. */
export const inCi = (env: Environment = processEnvironment()): boolean => Boolean(env.CI);

/** A variable's value; an empty or blank one counts as unset. */
export function envText(env: Environment, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

const ON = new Set(['1', 'true', 'yes', 'on']);
const OFF = new Set(['', '0', 'false', 'no', 'off']);

/**
 * An on/off variable (IMPRINT_ALLOW_PRIVATE=1). Strict: IMPRINT_ALLOW_PRIVATE=0 must not open
 * the private network, and an unreadable value is an error rather than a guess either way.
 */
export function parseSwitch(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  const normalised = value.trim().toLowerCase();
  if (ON.has(normalised)) return true;
  if (OFF.has(normalised)) return false;
  throw new ImprintError('USAGE', `Invalid ${name}=${JSON.stringify(value)}: use 1 (on) or 0 (off).`);
}

export const envSwitch = (env: Environment, name: string): boolean => parseSwitch(name, env[name]);

/**
 * A variable read by the parser of the flag it stands for (`option`, as --help shows it:
 * "--max-pages <n>"); what the parser refuses is a usage error that names both.
 */
export function envValue<T>(env: Environment, name: string, option: string, parse: (text: string) => T): T | undefined {
  const text = envText(env, name);
  if (text === undefined) return undefined;
  try {
    return parse(text);
  } catch (error) {
    const message = isImprintError(error) || error instanceof Error ? error.message : '';
    const reason = message && ` ${message[0].toUpperCase()}${message.slice(1)}`;
    throw new ImprintError('USAGE', `Option '${option}' value '${text}' from env '${name}' is invalid.${reason}`, { cause: error });
  }
}
