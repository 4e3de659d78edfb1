/**
 * The parts of an X.509 certificate a CMS signer identifies it by: its issuer Name and serial
 * number, as the exact DER the certificate holds (IssuerAndSerialNumber and ESS's IssuerSerial
 * must match them byte for byte).
 */
import { children, readElement, TAG, type Element } from './der.js';

export interface CertificateId {
  issuer: Element;
  serial: Element;
}

export function certificateId(certificate: Buffer): CertificateId {
  const tbs = children(readElement(certificate))[0]!;
  const fields = children(tbs);
  // version is an optional [0]; then serialNumber, signature, issuer.
  const first = fields[0]!.tag === 0xa0 ? 1 : 0;
  const serial = fields[first]!;
  if (serial.tag !== TAG.INTEGER) throw new Error('a certificate without a serial number');
  return { serial, issuer: fields[first + 2]! };
}
