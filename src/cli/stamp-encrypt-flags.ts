/**
 * The CLI's flags for a stamp and for encryption (render, single and batch, and generate): they
 * become the request fields `stamp` and `encrypt`, read by the core's own parsers
 * (core/pdf/stamp-encrypt-request.ts), so the CLI, the library and the API accept and refuse the
 * same things. Passwords may come from IMPRINT_USER_PASSWORD / IMPRINT_OWNER_PASSWORD instead of
 * flags, which keeps them out of shell history and the process list.
 */
import type { Command } from 'commander';
import { ImprintError } from '../core/errors.js';
import { PERMISSIONS_SYNTAX } from '../core/pdf/encrypt-options.js';
import { parseStampEncrypt, type StampEncryptOptions } from '../core/pdf/stamp-encrypt-request.js';
import { STAMP_POSITIONS } from '../core/pdf/stamp-options.js';
import { PAGES_SYNTAX } from '../core/pdf/stamp-pages.js';
import { envText, type Environment } from '../backend/environment.js';
import { guideFile } from '../core/guides.js';
import { readBinaryInput } from './io/read-input.js';

export interface StampEncryptFlags {
  stamp?: string;
  stampPages?: string;
  stampPosition?: string;
  stampOpacity?: string;
  stampRotate?: string;
  encrypt?: boolean;
  userPassword?: string;
  ownerPassword?: string;
  permissions?: string;
}

export const USER_PASSWORD_ENV = 'IMPRINT_USER_PASSWORD';
export const OWNER_PASSWORD_ENV = 'IMPRINT_OWNER_PASSWORD';

export function addStampEncryptOptions(command: Command): Command {
  return command
    .option('--stamp <text|file>', `stamp every page (see --stamp-pages): a text such as DRAFT (real, searchable text), or a .pdf (its first page) or .svg file; see ${guideFile('finishing')}`)
    .option('--stamp-pages <pages>', `with --stamp: ${PAGES_SYNTAX} (default all)`)
    .option('--stamp-position <where>', `with --stamp: ${STAMP_POSITIONS.join(', ')} (default center)`)
    .option('--stamp-opacity <0-1>', 'with --stamp: 1 is opaque (default 0.5)')
    .option('--stamp-rotate <degrees>', 'with --stamp: degrees counter-clockwise, or "diagonal" (corner to corner; default 0)')
    .option('--encrypt', `encrypt the PDF (AES-256): a reader needs the user password to open it and the owner password to lift the permissions; not with --pdfa or --einvoice`)
    .option('--user-password <password>', `with --encrypt: the password that opens the file (or ${USER_PASSWORD_ENV}, which keeps it out of your shell history)`)
    .option('--owner-password <password>', `with --encrypt: the password that lifts the permissions (or ${OWNER_PASSWORD_ENV}); without one, a random one nobody keeps`)
    .option('--permissions <list>', `with --encrypt: what a reader with the user password may do, e.g. print=low,copy=no; ${PERMISSIONS_SYNTAX} (default print=high,modify=none,copy=yes,annotate=no)`);
}

/** The examples `--help` shows after the others. */
export const STAMP_ENCRYPT_EXAMPLES = [
  '  $ imprint render invoice --props props.json --stamp DRAFT --stamp-rotate diagonal -o draft.pdf',
  '  $ imprint render invoice --props props.json --stamp logo.svg --stamp-position top-right --stamp-pages first --stamp-opacity 1',
  `  $ ${USER_PASSWORD_ENV}=open-me ${OWNER_PASSWORD_ENV}=secret imprint render statement --encrypt --permissions print=low,copy=no -o statement.pdf`,
];

function number(flag: string, value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed)) throw new ImprintError('USAGE', `Invalid ${flag} ${JSON.stringify(value)}: expected a number.`);
  return parsed;
}

/** A value ending in .pdf or .svg is a file to read; anything else is the stamp's text. */
async function stampField(flags: StampEncryptFlags): Promise<Record<string, unknown> | undefined> {
  const placement = { pages: flags.stampPages, position: flags.stampPosition, opacity: flags.stampOpacity, rotate: flags.stampRotate };
  if (flags.stamp === undefined) {
    const stray = Object.entries(placement).find(([, value]) => value !== undefined);
    if (stray) throw new ImprintError('USAGE', `--stamp-${stray[0]} places a stamp: add --stamp "DRAFT" (or --stamp file.pdf|file.svg).`);
    return undefined;
  }
  const kind = /\.(pdf|svg)$/i.exec(flags.stamp)?.[1]?.toLowerCase();
  const bytes = kind ? await readBinaryInput(flags.stamp, 'stamp') : undefined;
  const content = !bytes ? { text: flags.stamp } : kind === 'pdf' ? { pdf: bytes.toString('base64') } : { svg: bytes.toString('utf8') };
  return {
    ...content,
    ...(placement.pages !== undefined ? { pages: placement.pages } : {}),
    ...(placement.position !== undefined ? { position: placement.position } : {}),
    ...(placement.opacity !== undefined ? { opacity: number('--stamp-opacity', placement.opacity) } : {}),
    ...(placement.rotate !== undefined ? { rotate: placement.rotate === 'diagonal' ? 'diagonal' : number('--stamp-rotate', placement.rotate) } : {}),
  };
}

function encryptField(flags: StampEncryptFlags, env: Environment): Record<string, unknown> | undefined {
  const userPassword = flags.userPassword ?? envText(env, USER_PASSWORD_ENV);
  const ownerPassword = flags.ownerPassword ?? envText(env, OWNER_PASSWORD_ENV);
  if (!flags.encrypt) {
    // The variables may be set for other runs; a flag without --encrypt is a mistake.
    const stray = flags.userPassword !== undefined ? '--user-password' : flags.ownerPassword !== undefined ? '--owner-password' : flags.permissions !== undefined ? '--permissions' : undefined;
    if (stray) throw new ImprintError('USAGE', `${stray} goes with --encrypt: add --encrypt to encrypt the PDF.`);
    return undefined;
  }
  if (userPassword === undefined && ownerPassword === undefined) {
    throw new ImprintError('USAGE', `--encrypt needs a password: --user-password (or ${USER_PASSWORD_ENV}) to open the file, --owner-password (or ${OWNER_PASSWORD_ENV}) to lift its permissions, or both.`);
  }
  return { userPassword, ownerPassword, permissions: flags.permissions };
}

/** `archival`: the pdfa and einvoice the other flags asked for (encryption is refused with them). */
export async function stampEncryptOptions(flags: StampEncryptFlags, env: Environment, archival: { pdfa?: string; einvoice?: unknown }): Promise<StampEncryptOptions> {
  const encrypt = encryptField(flags, env);
  const given = encrypt && Object.fromEntries(Object.entries(encrypt).filter(([, value]) => value !== undefined));
  return parseStampEncrypt({ stamp: await stampField(flags), encrypt: given }, archival);
}
