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
import { openOwnKey, type Signer } from '../core/pdf/sign/own-key-signer.js';
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

/** The signing step the flags ask for, its key opened now; undefined without --sign. */
export async function signerFromFlags(flags: SignFlags & { format?: string; batch?: string }, env: Environment): Promise<Signer | undefined> {
  if (flags.sign === undefined) {
    if (flags.tsa !== undefined || flags.signPassword !== undefined) throw new ImprintError('USAGE', `${flags.tsa !== undefined ? '--tsa' : '--sign-password'} goes with --sign <file.p12>: add it.`);
    return undefined;
  }
  if (flags.format === 'json') throw new ImprintError('USAGE', '--sign signs the PDF this command receives: use --format pdf (the default) or base64, not json.');
  if (flags.batch !== undefined) throw new ImprintError('USAGE', '--sign signs one document: for a batch, sign in the service with the team\'s key (`imprint team signing-key`, request field sign: true).');
  const file = flags.sign;
  return openOwnKey({
    read: () => readBinaryInput(file, 'signing key'),
    password: flags.signPassword ?? envText(env, 'IMPRINT_SIGN_PASSWORD') ?? '',
    name: file,
    tsa: flags.tsa === undefined ? undefined : { url: flags.tsa, field: '--tsa' },
  });
}
