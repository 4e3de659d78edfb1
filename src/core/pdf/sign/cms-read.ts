/**
 * A CMS SignedData read back and checked (RFC 5652 5.4): its signer's certificate found among
 * the embedded ones, its message-digest attribute compared with the content's digest, and its
 * signature verified over the signed attributes with Node's crypto. Used for a PDF signature
 * (content: the signed byte ranges) and for the time-stamp token inside it (content: its TSTInfo).
 */
import { createHash, verify, X509Certificate } from 'node:crypto';
import { certificateId } from './certificate-fields.js';
import { children, readElement, readOid, TAG, tlv, type Element } from './der.js';
import { DIGEST_NAMES, OID } from './oids.js';

export interface SignedDataCheck {
  /** The signer's certificate, when the CMS carries it. */
  signer: X509Certificate | undefined;
  /** Node's name of the digest algorithm ("sha256"). */
  digest: string;
  /** The encapsulated content (a time-stamp token's TSTInfo); undefined when detached. */
  content: Buffer | undefined;
  /** The message-digest attribute equals the content's digest. */
  digestMatches: boolean;
  /** The signature over the signed attributes verifies with the signer's public key. */
  signatureValid: boolean;
  signatureValue: Buffer;
  /** Unsigned attributes by OID: each one's first value. */
  unsigned: Map<string, Element>;
  /** Signed attributes by OID: each one's first value. */
  signed: Map<string, Element>;
}

function attributes(set: Element | undefined): Map<string, Element> {
  const map = new Map<string, Element>();
  for (const attribute of set ? children(set) : []) {
    const [type, values] = children(attribute);
    map.set(readOid(type!), children(values!)[0]!);
  }
  return map;
}

/** `contentDigest`: the detached content's digest under the signer's algorithm (undefined: digest the encapsulated content). */
export function checkSignedData(contentInfoDer: Buffer, contentDigest?: (digest: string) => Buffer): SignedDataCheck {
  const [type, wrapped] = children(readElement(contentInfoDer));
  if (readOid(type!) !== OID.signedData) throw new Error('not a CMS SignedData');
  const fields = children(children(wrapped!)[0]!);
  const encapsulated = children(fields[2]!);
  const eContent = encapsulated[1] ? children(encapsulated[1])[0]!.content : undefined;
  let next = 3;
  const certificates: Buffer[] = [];
  if (fields[next]?.tag === 0xa0) certificates.push(...children(fields[next++]!).filter((item) => item.tag === TAG.SEQUENCE).map((item) => Buffer.from(item.bytes)));
  if (fields[next]?.tag === 0xa1) next++; // CRLs
  const signerInfo = children(children(fields[next]!)[0]!);
  const [, sid, digestAlgorithm] = signerInfo;
  let index = 3;
  const signedAttributes = signerInfo[index]?.tag === 0xa0 ? signerInfo[index++] : undefined;
  index++; // signatureAlgorithm
  const signatureValue = Buffer.from(signerInfo[index++]!.content);
  const unsignedAttributes = signerInfo[index]?.tag === 0xa1 ? signerInfo[index] : undefined;

  const digest = DIGEST_NAMES[readOid(children(digestAlgorithm!)[0]!)] ?? 'unknown';
  const [issuer, serial] = children(sid!);
  const signerDer = certificates.find((der) => {
    const id = certificateId(der);
    return id.issuer.bytes.equals(issuer!.bytes) && id.serial.bytes.equals(serial!.bytes);
  });
  const signer = signerDer ? new X509Certificate(signerDer) : undefined;
  const signed = attributes(signedAttributes);
  const expected = contentDigest ? contentDigest(digest) : createHash(digest).update(eContent ?? Buffer.alloc(0)).digest();
  const messageDigest = signed.get(OID.messageDigest);
  // What is signed is the attributes' SET encoding, not the [0] they are tagged with in the SignerInfo.
  const signedBytes = signedAttributes ? tlv(TAG.SET, signedAttributes.content) : undefined;
  let signatureValid = false;
  if (signer && signedBytes) {
    try {
      signatureValid = verify(digest, signedBytes, signer.publicKey, signatureValue);
    } catch {
      signatureValid = false; // an algorithm Node does not know is a signature this check cannot accept
    }
  }
  return {
    signer,
    digest,
    content: eContent ? Buffer.from(eContent) : undefined,
    digestMatches: messageDigest !== undefined && messageDigest.content.equals(expected),
    signatureValid,
    signatureValue,
    unsigned: attributes(unsignedAttributes),
    signed,
  };
}
