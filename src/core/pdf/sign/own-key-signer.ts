/**
 * Signing with the user's own key on the user's machine: the one glue behind the CLI's
 * `--sign <file.p12>` and the library's `sign: { p12 }` (docs/finishing.md, "Signatures").
 * The key is opened (and the time-stamp authority's URL checked) before anything renders, so a
 * wrong password fails at once rather than after the render; the signer it gives then signs
 * the result that came back from whatever rendered it (this process, the warm renderer, a
 * remote service), as the last step. The key never leaves this process.
 *
 * Light on purpose, so the faces import it always: node-forge and pdf-lib load only when a key
 * is opened.
 */
import { wholePdf } from '../../spool/spooled-pdf.js';
import { ImprintError } from '../../errors.js';
import type { RenderResult } from '../../result-forms.js';
import type { MadeBy } from './sign-document.js';
import type { EncryptOptions } from '../encrypt-options.js';
import { parseTsaUrl } from './sign-option.js';

export interface OwnKey {
  /** The PKCS#12 file's bytes; read after the TSA's URL is checked, so a bad URL is said first. */
  read: () => Buffer | Promise<Buffer>;
  password: string;
  /** Names the key in messages: its path, or the option that gave its bytes. */
  name: string;
  /** Where the password is given, for the wrong-password message; default the CLI's flag and variable (signing-key.ts). */
  passwordFrom?: string;
  /** An RFC 3161 authority's URL as given, and the flag or field that gave it (B-T). */
  tsa?: { url: unknown; field: string };
}

/** The passwords an encrypted document was made with: a visible signature's appearance needs them. */
export type EncryptPasswords = Pick<EncryptOptions, 'userPassword' | 'ownerPassword'>;

/** Signs a PDF or base64 result as the last step; `madeBy` names the template and version in the signature. */
export type Signer = (result: RenderResult, madeBy: MadeBy, encrypt?: EncryptPasswords) => Promise<RenderResult>;

export async function openOwnKey(key: OwnKey): Promise<Signer> {
  const [{ readPkcs12 }, { signDocument }] = await Promise.all([import('./signing-key.js'), import('./sign-document.js')]);
  const tsa = key.tsa === undefined ? undefined : parseTsaUrl(key.tsa.url, key.tsa.field);
  const opened = readPkcs12(await key.read(), key.password, key.name, key.passwordFrom);
  return async (result, madeBy, encrypt) => {
    // A json result is a URL to a file kept where it was rendered: the faces ask for bytes when they sign.
    if (result.format === 'json') throw new ImprintError('INTERNAL', 'A json result cannot be signed here.');
    const pdf = result.format === 'pdf' ? await wholePdf(result.pdf) : Buffer.from(result.body.data, 'base64');
    const signed = await signDocument(pdf, opened, { tsa }, madeBy, undefined, encrypt);
    return result.format === 'pdf' ? { format: 'pdf', pdf: signed } : { format: 'base64', body: { data: signed.toString('base64') } };
  };
}
