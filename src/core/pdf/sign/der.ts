/**
 * The few DER shapes a CMS signature and an RFC 3161 request need, written and read by hand:
 * every byte of a certificate and of the signed attributes must be kept exactly as it was
 * (their hashes and signatures are over those bytes), which a generic ASN.1 library's
 * decode-then-encode round trip does not promise. Encoding is tag + length + content; reading
 * gives each element's tag, where its content starts and ends, and its exact bytes.
 */

/** Tags used here (universal, and the context-specific ones CMS uses). */
export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  PRINTABLE_STRING: 0x13,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One element: its tag byte and its content (the concatenation of the parts given). */
export function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), lengthBytes(body.length), body]);
}

export const sequence = (...items: Buffer[]) => tlv(TAG.SEQUENCE, ...items);
/** A DER SET OF: its elements in the order of their encodings, as DER requires. */
export const setOf = (...items: Buffer[]) => tlv(TAG.SET, ...[...items].sort(Buffer.compare));
export const octetString = (bytes: Buffer) => tlv(TAG.OCTET_STRING, bytes);
export const nullValue = () => Buffer.from([TAG.NULL, 0]);
export const boolean = (value: boolean) => tlv(TAG.BOOLEAN, Buffer.from([value ? 0xff : 0]));
/** [n] EXPLICIT / constructed context-specific element. */
export const contextConstructed = (n: number, ...content: Buffer[]) => tlv(0xa0 | n, ...content);

/** An INTEGER from its unsigned big-endian magnitude (a leading zero added when the top bit is set). */
export function unsignedInteger(magnitude: Buffer): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  return tlv(TAG.INTEGER, trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export const smallInteger = (value: number) => unsignedInteger(Buffer.from([value]));

export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const bytes: number[] = [arcs[0]! * 40 + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const groups: number[] = [];
    let rest = arc;
    do {
      groups.unshift(rest & 0x7f);
      rest = Math.floor(rest / 128);
    } while (rest > 0);
    groups.forEach((group, i) => bytes.push(i < groups.length - 1 ? group | 0x80 : group));
  }
  return tlv(TAG.OID, Buffer.from(bytes));
}

/** An AlgorithmIdentifier; `params` NULL for RSA, none for SHA-2 and ECDSA (RFC 5754, RFC 5758). */
export const algorithm = (dotted: string, params?: Buffer) => sequence(oid(dotted), ...(params ? [params] : []));

/** One element read from DER: its tag, its exact bytes and its content's. */
export interface Element {
  tag: number;
  /** The whole element (tag, length, content). */
  bytes: Buffer;
  content: Buffer;
}

export class DerError extends Error {}

/** The element at `offset` of `der`. */
export function readElement(der: Buffer, offset = 0): Element {
  if (offset + 2 > der.length) throw new DerError('truncated DER');
  const tag = der[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError('multi-byte tags are not used here');
  let length = der[offset + 1]!;
  let headerLength = 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new DerError('indefinite or oversized length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + der[offset + 2 + i]!;
    headerLength += count;
  }
  const end = offset + headerLength + length;
  if (end > der.length) throw new DerError('an element runs past its container');
  return { tag, bytes: der.subarray(offset, end), content: der.subarray(offset + headerLength, end) };
}

/** The elements inside a constructed element, in order. */
export function children(element: Element): Element[] {
  const items: Element[] = [];
  for (let offset = 0; offset < element.content.length; ) {
    const item = readElement(element.content, offset);
    items.push(item);
    offset += item.bytes.length;
  }
  return items;
}

export function readOid(element: Element): string {
  if (element.tag !== TAG.OID) throw new DerError('expected an OBJECT IDENTIFIER');
  const bytes = element.content;
  const arcs = [Math.floor(bytes[0]! / 40), bytes[0]! % 40];
  let value = 0;
  for (const byte of bytes.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      arcs.push(value);
      value = 0;
    }
  }
  return arcs.join('.');
}

/** A UTCTime or GeneralizedTime as a Date (the forms X.509 and RFC 3161 use: UTC, Z-terminated). */
export function readTime(element: Element): Date {
  const text = element.content.toString('latin1');
  const match = /^(\d{2}|\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?(?:\.(\d+))?Z$/.exec(text);
  if (!match) throw new DerError(`an unreadable time ${JSON.stringify(text)}`);
  const [, y, mo, d, h, mi, s = '00', fraction = '0'] = match;
  const year = y!.length === 2 ? (Number(y) < 50 ? 2000 + Number(y) : 1900 + Number(y)) : Number(y);
  return new Date(Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Math.round(Number(`0.${fraction}`) * 1000)));
}
