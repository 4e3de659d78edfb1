/**
 * The CMS SignedData a PAdES signature's /Contents holds (ETSI EN 319 142-1, baseline B-B; B-T
 * with a time-stamp). Detached: the content is the document's signed byte ranges, present only
 * as their SHA-256 in the message-digest attribute. The signed attributes are exactly the ones
 * PAdES asks for: content-type, message-digest and ESS signing-certificate-v2 (the signer's
 * certificate bound into what is signed); no signing-time attribute, which PAdES forbids (the
 * claimed time is the signature dictionary's /M, the proven one a time-stamp). For B-T the
 * time-stamp token over the signature value is an unsigned signature-time-stamp attribute.
 */
import { createHash, sign } from 'node:crypto';
import { certificateId } from './certificate-fields.js';
import { algorithm, contextConstructed, nullValue, octetString, oid, readElement, sequence, setOf, smallInteger, tlv } from './der.js';
import { OID } from './oids.js';
import type { SigningKey } from './signing-key.js';

/** A time-stamp token (DER ContentInfo) over these bytes: the signature value, for B-T. */
export type TimeStamper = (signatureValue: Buffer) => Promise<Buffer>;

const attribute = (type: string, value: Buffer) => sequence(oid(type), setOf(value));

function signatureAlgorithm(key: SigningKey): Buffer {
  const type = key.privateKey.asymmetricKeyType;
  if (type === 'rsa') return algorithm(OID.rsaEncryption, nullValue());
  if (type === 'ec') return algorithm(OID.ecdsaWithSha256);
  throw new Error(`a ${type} key: Imprint signs with RSA or EC keys`);
}

/** The signed attributes as a SET (what is signed); in the SignerInfo they carry the tag [0]. */
function signedAttributes(documentDigest: Buffer, key: SigningKey): Buffer {
  const { issuer, serial } = certificateId(key.certificate);
  // ESSCertIDv2 with its default hash algorithm (SHA-256) left out, as DER requires.
  const essCertId = sequence(octetString(createHash('sha256').update(key.certificate).digest()), sequence(sequence(contextConstructed(4, issuer.bytes)), serial.bytes));
  return setOf(
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octetString(documentDigest)),
    attribute(OID.signingCertificateV2, sequence(sequence(essCertId))),
  );
}

/** The DER ContentInfo for a document whose signed byte ranges hash (SHA-256) to `documentDigest`. */
export async function cadesSignature(documentDigest: Buffer, key: SigningKey, timeStamp?: TimeStamper): Promise<Buffer> {
  const { issuer, serial } = certificateId(key.certificate);
  const attributes = signedAttributes(documentDigest, key);
  const signatureValue = sign('sha256', attributes, key.privateKey);
  const unsigned = timeStamp ? [tlv(0xa1, attribute(OID.signatureTimeStampToken, await timeStamp(signatureValue)))] : [];
  const signerInfo = sequence(
    smallInteger(1),
    sequence(issuer.bytes, serial.bytes),
    algorithm(OID.sha256),
    tlv(0xa0, readElement(attributes).content),
    signatureAlgorithm(key),
    octetString(signatureValue),
    ...unsigned,
  );
  const signedData = sequence(
    smallInteger(1),
    setOf(algorithm(OID.sha256)),
    sequence(oid(OID.data)),
    tlv(0xa0, key.certificate, ...key.chain),
    setOf(signerInfo),
  );
  return sequence(oid(OID.signedData), contextConstructed(0, signedData));
}
