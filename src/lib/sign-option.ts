/**
 * The library's `sign`. `{ p12, password?, tsa? }` is the caller's own key: opened here before
 * anything renders, and the result signed in this process once it is back, by the glue the
 * CLI's --sign uses (core/pdf/sign/own-key-signer.ts). `true` or `{ tsa }` is the request's own
 * field, the team's key held by an Imprint service: it goes to the engine as it is, and where
 * the document renders on this machine (which holds no team's key) it is refused here, saying
 * how to give a key instead.
 */
import { createHash } from 'node:crypto';
import { ImprintError } from '../core/errors.js';
import { openOwnKey, type Signer } from '../core/pdf/sign/own-key-signer.js';
import { readInputFile } from '../core/read-file.js';

const OWN_KEY_FIELDS = ['p12', 'password', 'tsa'];

/** A `sign` naming a key of the caller's (p12, or a password for one), not the service's team key. */
function isOwnKey(sign: unknown): sign is Record<string, unknown> {
  return sign !== null && typeof sign === 'object' && ('p12' in sign || 'password' in sign);
}

/** What of `sign` is the request's field (the team's key): nothing for the caller's own key. */
export function requestSignField(sign: unknown): unknown {
  if (sign === undefined || isOwnKey(sign)) return undefined;
  if (typeof sign === 'boolean' || (sign !== null && typeof sign === 'object' && !Array.isArray(sign))) return sign;
  throw new ImprintError('USAGE', `Invalid sign ${JSON.stringify(sign)}: give your own key, { p12, password?, tsa? }, or true / { tsa } for the team's key of an Imprint service.`);
}

function keyBytes(p12: unknown): { bytes: Buffer; name: string } {
  if (typeof p12 === 'string') return { bytes: readInputFile(p12, 'signing key'), name: p12 };
  if (p12 instanceof Uint8Array) return { bytes: Buffer.from(p12), name: 'sign.p12' };
  throw new ImprintError('USAGE', `Invalid sign.p12${p12 === undefined ? ' (missing)' : `: got ${typeof p12}`}: give the PKCS#12 (.p12/.pfx) file's bytes (a Uint8Array or Buffer) or its path.`);
}

/**
 * The keys one instance has opened, by what opened them (the file's bytes, its password, the
 * TSA): opening a PKCS#12 is its key derivation in pure JavaScript, tens to hundreds of
 * milliseconds, so a loop of signed renders opens its key once. A path is read on every call,
 * so a file replaced on disk is the key the next call opens.
 */
export type OpenedKeys = Map<string, Promise<Signer>>;

function openCallerKey(sign: Record<string, unknown>, opened: OpenedKeys): Promise<Signer> {
  const unknown = Object.keys(sign).filter((field) => !OWN_KEY_FIELDS.includes(field));
  if (unknown.length > 0) throw new ImprintError('USAGE', `Invalid sign: unknown field ${JSON.stringify(unknown[0])}; your own key is sign: { p12, password?, tsa? }.`);
  const { p12, password = '', tsa } = sign;
  if (typeof password !== 'string') throw new ImprintError('USAGE', 'Invalid sign.password: give the PKCS#12 file\'s password as a string.');
  const { bytes, name } = keyBytes(p12);
  const id = createHash('sha256').update(bytes).update(JSON.stringify([password, tsa ?? null])).digest('hex');
  const known = opened.get(id);
  if (known) return known;
  const signer = openOwnKey({ read: () => bytes, name, password, passwordFrom: 'sign.password', tsa: tsa === undefined ? undefined : { url: tsa, field: 'sign.tsa' } });
  opened.set(id, signer);
  // A key that does not open is not kept, so each call is told why; the caller gets the rejection itself.
  signer.catch(() => opened.delete(id));
  return signer;
}

/**
 * The signing step `sign` asks of this process, its key opened now (or by an earlier call of the
 * instance, `opened`); undefined when the engine
 * signs (the service's team key) or nothing is signed. `renderedHere` says why a team key
 * cannot be used, when the document renders on this machine.
 */
export async function callerSigner(sign: unknown, renderedHere: 'embedded' | 'template file' | undefined, opened: OpenedKeys): Promise<Signer | undefined> {
  if (isOwnKey(sign)) return openCallerKey(sign, opened);
  if (sign === undefined || sign === false || renderedHere === undefined) return undefined;
  const given = sign === true ? 'sign: true' : 'sign: { tsa }';
  const where = renderedHere === 'embedded' ? 'this instance renders on this machine (no apiUrl)' : 'a template file renders on this machine';
  throw new ImprintError('USAGE', `${given} signs with a team's key held by an Imprint service (\`imprint team signing-key\`), but ${where}. Sign with your own key instead: sign: { p12: 'signer.p12' (a path, or the file's bytes), password, tsa? }.`);
}
