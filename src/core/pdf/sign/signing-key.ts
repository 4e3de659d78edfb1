/**
 * A signer's key and certificates from a PKCS#12 (.p12 / .pfx) file. node-forge reads the
 * container (OpenSSL 3's default PBES2/AES-256 and the legacy 3DES/RC2 forms alike, in pure
 * JavaScript); everything after that is Node's own crypto: the private key becomes a KeyObject
 * (RSA or EC), the certificates X509Certificates, and the signer's certificate is the one whose
 * public key matches the private key, whatever order the file lists them in.
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { ImprintError } from '../../errors.js';

export interface SigningKey {
  privateKey: KeyObject;
  /** The signer's certificate (DER). */
  certificate: Buffer;
  /** The other certificates of the file (its CA chain), DER, embedded in each signature. */
  chain: Buffer[];
}

const derOf = (node: forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(node).getBytes(), 'binary');

type Bag = forge.pkcs12.Bag & { asn1?: forge.asn1.Asn1 };

function keyDer(bag: Bag): Buffer {
  // forge models RSA keys only; any other (EC) comes back as its PrivateKeyInfo, which Node reads.
  if (bag.key) return derOf(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bag.key as forge.pki.rsa.PrivateKey)));
  if (bag.asn1) return derOf(bag.asn1);
  throw new Error('a key bag without a key');
}

function certDer(bag: Bag): Buffer {
  if (bag.cert) return derOf(forge.pki.certificateToAsn1(bag.cert));
  if (bag.asn1) return derOf(bag.asn1);
  throw new Error('a certificate bag without a certificate');
}

/**
 * `what` names the file in messages (its path, or "the team's signing key"); `passwordFrom`
 * says where its password is given, for a wrong one (the library's `sign.password`).
 */
export function readPkcs12(p12: Buffer, password: string, what: string, passwordFrom = '--sign-password or IMPRINT_SIGN_PASSWORD'): SigningKey {
  let pfx: forge.pkcs12.Pkcs12Pfx;
  try {
    pfx = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary'))), false, password);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const wrongPassword = /mac|password|decrypt|invalid/i.test(message);
    throw new ImprintError(
      'USAGE',
      wrongPassword
        ? `Cannot open ${what}: wrong password (${passwordFrom}), or not a PKCS#12 file.`
        : `Cannot read ${what} as PKCS#12 (.p12/.pfx): ${message.replace(/\.+$/, '')}. Export one with: openssl pkcs12 -export -inkey key.pem -in cert.pem -certfile ca.pem -out signer.p12`,
      { cause: error },
    );
  }
  const bagsOf = (type: string) => (pfx.getBags({ bagType: type })[type] ?? []) as Bag[];
  const keys = [...bagsOf(forge.pki.oids.pkcs8ShroudedKeyBag!), ...bagsOf(forge.pki.oids.keyBag!)];
  const certificates = bagsOf(forge.pki.oids.certBag!).map(certDer);
  if (keys.length !== 1) throw new ImprintError('USAGE', `${what} holds ${keys.length} private keys: a signing key file holds exactly one (and its certificate).`);
  const privateKey = createPrivateKey({ key: keyDer(keys[0]!), format: 'der', type: 'pkcs8' });
  const signer = certificates.findIndex((der) => new X509Certificate(der).checkPrivateKey(privateKey));
  if (signer < 0) throw new ImprintError('USAGE', `${what} holds no certificate for its private key: export the signer's certificate with the key (openssl pkcs12 -export -inkey key.pem -in cert.pem).`);
  return { privateKey, certificate: certificates[signer]!, chain: certificates.filter((_, i) => i !== signer) };
}
