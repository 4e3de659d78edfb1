/**
 * The signature step every face calls: a PDF, a signing key, and optionally a time-stamp
 * authority's URL (B-T); Imprint's software name goes into the signature with the template
 * and version that made the document, when known.
 */
import type { SignOptions } from './sign-option.js';
import { imprintSoftwareName } from '../../version.js';
import { signPdf } from './sign-pdf.js';
import type { SigningKey } from './signing-key.js';
import { requestTimeStamp } from './timestamp.js';

export interface MadeBy {
  template?: string;
  version?: number;
}

/** `encrypt`: the passwords an encrypted document was made with, which a visible signature's appearance needs (sign-pdf.ts). */
export function signDocument(pdf: Buffer, key: SigningKey, options: SignOptions, madeBy: MadeBy = {}, fetchImpl?: typeof fetch, encrypt?: { userPassword?: string; ownerPassword?: string }): Promise<Buffer> {
  const tsa = options.tsa;
  return signPdf(pdf, {
    key,
    timeStamp: tsa === undefined ? undefined : (signatureValue) => requestTimeStamp(tsa, signatureValue, fetchImpl),
    madeBy: { software: imprintSoftwareName(), ...madeBy },
    // Without a user password the file opens with the empty one.
    password: encrypt ? (encrypt.ownerPassword ?? encrypt.userPassword ?? '') : undefined,
  });
}

