/**
 * The request's `encrypt` field (the CLI's --encrypt, --user-password, --owner-password and
 * --permissions), read once for every face: passwords and what a reader who opens the file with
 * the user password may do. Encryption itself is encrypt-pdf.ts.
 *
 * The permission vocabulary (the CLI's `--permissions print=low,modify=none,copy=no`):
 *   print    none | low | high      (default high)
 *   modify   none | forms | assembly | all   (default none: forms = fill in form fields;
 *            assembly = forms, and insert, rotate or delete pages; all = any change)
 *   copy     yes | no                (default yes)
 *   annotate yes | no                (default no)
 * Extraction for accessibility (screen readers) is always allowed: a tagged PDF stays readable.
 */
import { ImprintError } from '../errors.js';

export const PRINT_LEVELS = ['none', 'low', 'high'] as const;
export const MODIFY_LEVELS = ['none', 'forms', 'assembly', 'all'] as const;
const YES_NO = ['yes', 'no'] as const;

export interface Permissions {
  print: (typeof PRINT_LEVELS)[number];
  modify: (typeof MODIFY_LEVELS)[number];
  copy: boolean;
  annotate: boolean;
}

export const DEFAULT_PERMISSIONS: Permissions = { print: 'high', modify: 'none', copy: true, annotate: false };

export interface EncryptOptions {
  /** Opens the file with the permissions below; empty: anyone opens it (the permissions still hold). */
  userPassword?: string;
  /** Opens it with every right; absent: a random one nobody keeps, so the permissions cannot be lifted. */
  ownerPassword?: string;
  permissions: Permissions;
}

/** The `encrypt` field as a request body writes it (the client's type). */
export interface EncryptField {
  userPassword?: string;
  ownerPassword?: string;
  permissions?: { print?: Permissions['print']; modify?: Permissions['modify']; copy?: 'yes' | 'no' | boolean; annotate?: 'yes' | 'no' | boolean };
}

/** AES-256 (R6) passwords are UTF-8 and a reader uses at most 127 bytes of one (ISO 32000-2, 7.6.4.3.3). */
const MAX_PASSWORD_BYTES = 127;

const PERMISSION_NAMES = ['print', 'modify', 'copy', 'annotate'] as const;
type PermissionName = (typeof PERMISSION_NAMES)[number];

const VALUES: Record<PermissionName, readonly string[]> = { print: PRINT_LEVELS, modify: MODIFY_LEVELS, copy: YES_NO, annotate: YES_NO };

/** What --help and the errors teach: every permission with its values. */
export const PERMISSIONS_SYNTAX = PERMISSION_NAMES.map((name) => `${name}=${VALUES[name].join('|')}`).join(',');

function checkPassword(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new ImprintError('USAGE', `Invalid ${field}: expected a string.`);
  if (Buffer.byteLength(value, 'utf8') > MAX_PASSWORD_BYTES) {
    throw new ImprintError('USAGE', `Invalid ${field}: longer than ${MAX_PASSWORD_BYTES} bytes of UTF-8, and PDF readers ignore the rest of a password; use a shorter one.`);
  }
  // A control character cannot be typed into a reader's password box: the file could never be opened.
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new ImprintError('USAGE', `Invalid ${field}: it holds a control character, which no reader's password box can type.`);
  return value;
}

function permissionValue(name: PermissionName, value: unknown): string {
  const text = typeof value === 'boolean' && VALUES[name] === YES_NO ? (value ? 'yes' : 'no') : value;
  if (typeof text === 'string' && VALUES[name].includes(text)) return text;
  throw new ImprintError('USAGE', `Invalid permission ${name}=${JSON.stringify(value)}: use ${name}=${VALUES[name].join('|')}.`);
}

/** Permissions from an object ({ print: 'low', copy: false }) or the CLI's "print=low,copy=no"; unnamed ones keep their defaults. */
export function parsePermissions(value: unknown): Permissions {
  const given: Record<string, unknown> = typeof value === 'string' ? permissionsFromText(value) : isObject(value) ? value : refusePermissions(value);
  const permissions = { ...DEFAULT_PERMISSIONS };
  for (const [name, raw] of Object.entries(given)) {
    if (!(PERMISSION_NAMES as readonly string[]).includes(name)) {
      throw new ImprintError('USAGE', `Unknown permission ${JSON.stringify(name)}: the permissions are ${PERMISSIONS_SYNTAX}.`);
    }
    const text = permissionValue(name as PermissionName, raw);
    if (name === 'print') permissions.print = text as Permissions['print'];
    else if (name === 'modify') permissions.modify = text as Permissions['modify'];
    else if (name === 'copy') permissions.copy = text === 'yes';
    else permissions.annotate = text === 'yes';
  }
  return permissions;
}

function permissionsFromText(text: string): Record<string, string> {
  const entries = text.split(',').map((part) => part.trim()).filter((part) => part !== '');
  return Object.fromEntries(
    entries.map((entry) => {
      const at = entry.indexOf('=');
      if (at <= 0) throw new ImprintError('USAGE', `Invalid permissions "${entry}": write name=value pairs, e.g. print=low,modify=none,copy=no (${PERMISSIONS_SYNTAX}).`);
      return [entry.slice(0, at).trim(), entry.slice(at + 1).trim()];
    }),
  );
}

function refusePermissions(value: unknown): never {
  throw new ImprintError('USAGE', `Invalid permissions ${JSON.stringify(value)}: expected an object such as {"print": "low", "copy": "no"}.`);
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The request's `encrypt` object: { userPassword?, ownerPassword?, permissions? }, at least one password. */
export function parseEncrypt(value: unknown): EncryptOptions {
  if (!isObject(value)) throw new ImprintError('USAGE', 'Invalid encrypt: expected an object such as {"userPassword": "...", "ownerPassword": "...", "permissions": {"print": "low"}}.');
  for (const field of Object.keys(value)) {
    if (!['userPassword', 'ownerPassword', 'permissions'].includes(field)) {
      throw new ImprintError('USAGE', `Unknown field encrypt.${field.slice(0, 60)}: encrypt takes userPassword, ownerPassword and permissions.`);
    }
  }
  const options: EncryptOptions = { permissions: value.permissions === undefined ? { ...DEFAULT_PERMISSIONS } : parsePermissions(value.permissions) };
  if (value.userPassword !== undefined) options.userPassword = checkPassword('encrypt.userPassword', value.userPassword);
  if (value.ownerPassword !== undefined) options.ownerPassword = checkPassword('encrypt.ownerPassword', value.ownerPassword);
  if (!options.userPassword && !options.ownerPassword) {
    throw new ImprintError('USAGE', 'Invalid encrypt: give a userPassword (needed to open the file), an ownerPassword (needed to lift its permissions), or both.');
  }
  // Opening with the user password would then give the owner's rights: the permissions would mean nothing.
  if (options.userPassword && options.userPassword === options.ownerPassword) {
    throw new ImprintError('USAGE', 'Invalid encrypt: the user and owner passwords are the same, so whoever opens the file may lift its permissions; choose two different ones.');
  }
  return options;
}

/** PDF/A (and so a Factur-X / ZUGFeRD e-invoice) forbids encryption (ISO 19005-2, 6.1.3): refused before anything renders. */
export function refuseEncryptWithPdfa(options: { encrypt?: EncryptOptions; pdfa?: string; einvoice?: unknown }): void {
  if (!options.encrypt || !options.pdfa) return;
  const what = options.einvoice ? 'An e-invoice (a PDF/A-3b)' : `A PDF/A-${options.pdfa}`;
  throw new ImprintError('USAGE', `${what} cannot be encrypted: PDF/A forbids encryption so that an archive can always open it. Drop encrypt (--encrypt) or pdfa/einvoice (--pdfa, --einvoice).`);
}
