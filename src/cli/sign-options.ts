/**
 * `--sign <file.p12>`, `--sign-password` and `--tsa` on render and generate: the finished PDF
 * signed on this machine with the user's own key, as the last step (docs/finishing.md,
 * "Signatures"). Signing is last whatever renders the document (this process, the warm
 * renderer or a remote service), so it happens here, after the result comes back: the key
 * never leaves the machine. The key file is opened before anything renders, so a wrong
 * password fails in a second, not after the render.
 */
import type { Command } from 'commander';
import { envText, type Environment } from '../backend/environment.js';
import { ImprintError } from '../core/errors.js';
import type { RenderResult } from '../core/result-forms.js';
import { guideFile } from '../core/guides.js';
import { readBinaryInput } from './io/read-input.js';

export interface SignFlags {
  sign?: string;
  signPassword?: string;
  tsa?: string;
}

export function addSignOptions(command: Command): Command {
  return command
    .option('--sign <file.p12>', `sign the PDF (PAdES B-B, the whole file, made last) with the key and certificate in this PKCS#12 file; see ${guideFile('finishing')}`)
    .option('--sign-password <password>', "the PKCS#12 file's password (better: the IMPRINT_SIGN_PASSWORD variable, which stays out of your shell history)")
    .option('--tsa <url>', 'with --sign: a time-stamp from this RFC 3161 authority (PAdES B-T), e.g. http://timestamp.digicert.com');
}

/** `encrypt`: the render's passwords, for a visible signature in an encrypted document. */
export type Signer = (result: RenderResult, madeBy: { template?: string; version?: number }, encrypt?: { userPassword?: string; ownerPassword?: string }) => Promise<RenderResult>;

/** The signing step the flags ask for, its key opened now; undefined without --sign. */
export async function signerFromFlags(flags: SignFlags & { format?: string; batch?: string }, env: Environment): Promise<Signer | undefined> {
  if (flags.sign === undefined) {
    if (flags.tsa !== undefined || flags.signPassword !== undefined) throw new ImprintError('USAGE', `${flags.tsa !== undefined ? '--tsa' : '--sign-password'} goes with --sign <file.p12>: add it.`);
    return undefined;
  }
  if (flags.format === 'json') throw new ImprintError('USAGE', '--sign signs the PDF this command receives: use --format pdf (the default) or base64, not json.');
  if (flags.batch !== undefined) throw new ImprintError('USAGE', '--sign signs one document: for a batch, sign in the service with the team\'s key (`imprint team signing-key`, request field sign: true).');
  const [{ readPkcs12 }, { signDocument }, { parseTsaUrl }] = await Promise.all([import('../core/pdf/sign/signing-key.js'), import('../core/pdf/sign/sign-document.js'), import('../core/pdf/sign/sign-option.js')]);
  const tsa = flags.tsa === undefined ? undefined : parseTsaUrl(flags.tsa, '--tsa');
  const key = readPkcs12(await readBinaryInput(flags.sign, 'signing key'), flags.signPassword ?? envText(env, 'IMPRINT_SIGN_PASSWORD') ?? '', flags.sign);
  return async (result, madeBy, encrypt) => {
    if (result.format === 'json') throw new ImprintError('INTERNAL', 'A json result cannot be signed here.');
    const pdf = result.format === 'pdf' ? result.pdf : Buffer.from(result.body.data, 'base64');
    const signed = await signDocument(pdf, key, { tsa }, madeBy, undefined, encrypt);
    return result.format === 'pdf' ? { format: 'pdf', pdf: signed } : { format: 'base64', body: { data: signed.toString('base64') } };
  };
}
