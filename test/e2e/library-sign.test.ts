/**
 * The library signs with the caller's own key (issue 39): a Node app of the user's imports
 * `imprint` by its name (the installed package under test; library-app-kit.ts) and passes `sign: { p12, password, tsa? }`, the key as a path, a Buffer
 * or a Uint8Array. Embedded, and against a real `imprint serve` whose team holds a key of
 * another CA: the own key's signature is made in the app (pdfsig trusts it with the app's CA,
 * not the team's), `sign: true` still asks the service for the team's. Judged by outside
 * oracles: pdfsig against NSS databases that each trust one test CA, and `imprint verify`.
 * The time-stamp authority is `openssl ts` behind a loopback HTTP server.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliWithDataDir, INPUTS, runCli, tempDir } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { assertTrustedWholeSignature, makeSigningPki, pdfsig, type SigningPki } from '../helpers/signing-pki.js';
import { createTeamKey } from '../helpers/team-key.js';
import { startTsa, type TsaServer } from '../helpers/tsa-server.js';
import { ATTEMPT_TS, makeLibraryApp, outcomesOf, runLibraryApp, typecheckLibraryApp } from './library-app-kit.js';

const COMMAND_MS = 240_000;
const SECRET = 'library-sign-secret-0123456789-abcdefghijklmnop';
/** A tagged contract with a <Signature> box on page 2 (test/fixtures/sign). */
const CONTRACT = path.join(INPUTS, 'test', 'fixtures', 'sign', 'SignedContract.tsx');

/** The apps' recorder (library-app-kit.ts) and what the test gives them. */
const ATTEMPT = `${ATTEMPT_TS}const { P12, P12_PASSWORD, TSA, CONTRACT } = process.env as Record<string, string>;
`;

/** Embedded: the key by path, as a Buffer with a TSA, as a Uint8Array in an encrypted document; a wrong password on an instance that cannot render. */
const EMBEDDED_APP = `import fs from 'node:fs';
import { createImprint, ImprintError, type OwnKeySignature, type RenderOptions } from 'imprint';
${ATTEMPT}
const key: OwnKeySignature = { p12: P12, password: P12_PASSWORD };
const imprint = createImprint({ dataDir: process.env.IMPRINT_DATA_DIR });
try {
  await attempt('contract', () => imprint.render(CONTRACT, undefined, { sign: key }));
  const bytes = fs.readFileSync(P12);
  await attempt('timestamped', () => imprint.generate({ html: '<h1>A time-stamped letter</h1>' }, { sign: { p12: bytes, password: P12_PASSWORD, tsa: TSA } }));
  const encrypted: RenderOptions = { encrypt: { userPassword: 'u', ownerPassword: 'o' }, sign: { p12: new Uint8Array(bytes), password: P12_PASSWORD } };
  await attempt('encrypted', () => imprint.render(CONTRACT, undefined, encrypted));
  await attempt('team-key', () => imprint.generate({ html: '<p>x</p>' }, { sign: true }));
  // @ts-expect-error the key is the file's path or its bytes
  const wrongType: OwnKeySignature = { p12: 42 };
  await attempt('p12-number', () => imprint.generate({ html: '<p>x</p>' }, { sign: wrongType }));
} finally {
  await imprint.close();
}

// Its browser does not exist: whatever this instance renders fails with BROWSER_NOT_FOUND.
const cannotRender = createImprint({ dataDir: process.env.IMPRINT_DATA_DIR, browser: '/nonexistent/chrome' });
try {
  await attempt('wrong-password', () => cannotRender.generate({ html: '<p>x</p>' }, { sign: { ...key, password: 'not-it' } }));
  await attempt('wrong-password-file', () => cannotRender.render(CONTRACT, undefined, { sign: { ...key, password: 'not-it' } }));
  await attempt('right-password', () => cannotRender.generate({ html: '<p>x</p>' }, { sign: key }));
} finally {
  await cannotRender.close();
}
console.log(JSON.stringify(outcomes));
`;

/** Remote: a published template and a page rendered by the service, signed here; the team's key asked of the service. */
const REMOTE_APP = `import fs from 'node:fs';
import { createImprint, ImprintError } from 'imprint';
${ATTEMPT}
const imprint = createImprint({ apiUrl: process.env.API_URL, apiKey: process.env.API_KEY, dataDir: process.env.IMPRINT_DATA_DIR });
try {
  const { id } = await imprint.publish(CONTRACT, { id: 'contract' });
  const props = { reason: 'Approved for ACME' };
  await attempt('own-key', () => imprint.render(id, props, { sign: { p12: P12, password: P12_PASSWORD } }));
  await attempt('own-key-tsa', () => imprint.generate({ html: '<h1>Rendered there, stamped here</h1>' }, { sign: { p12: fs.readFileSync(P12), password: P12_PASSWORD, tsa: TSA } }));
  await attempt('team-key', () => imprint.render(id, props, { sign: true }));
  await attempt('wrong-password', () => imprint.render('no-such-template', props, { sign: { p12: P12, password: 'not-it' } }));
  await attempt('team-key-file', () => imprint.render(CONTRACT, props, { sign: true }));
} finally {
  await imprint.close();
}
console.log(JSON.stringify(outcomes));
`;

const work = tempDir('imprint-lib-sign-');
const app = path.join(work, 'app');
let pki: SigningPki;
let tsa: TsaServer;

before(async () => {
  pki = makeSigningPki(path.join(work, 'pki'));
  tsa = await startTsa(pki);
  makeLibraryApp(app, 'sign-app', { 'embedded.ts': EMBEDDED_APP, 'remote.ts': REMOTE_APP });
});

after(async () => {
  await tsa?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Runs one of the apps as a user of Node 24 may (type stripping); what each call did. */
async function runApp(name: string, env: Record<string, string>): Promise<Record<string, string>> {
  const ran = await runLibraryApp(app, name, { P12: pki.signerP12, P12_PASSWORD: pki.password, TSA: tsa.url, CONTRACT, IMPRINT_DATA_DIR: tempDir('imprint-lib-sign-data-'), ...env }, COMMAND_MS);
  assert.equal(ran.code, 0, ran.describe());
  return outcomesOf(ran);
}

/** `imprint verify --json` of an app's output: exit 0 (signed, valid, unchanged), and its report. */
async function verified(file: string) {
  const result = await runCli(['verify', file, '--json'], { timeoutMs: 60_000 });
  assert.equal(result.code, 0, result.describe());
  return JSON.parse(result.stdout.toString()) as { signatures: { level: string; imprint: { template?: string }; timestamp?: { valid: boolean; authority: string } }[] };
}

const signatureCount = (report: string) => (report.match(/^Signature #\d+:/gm) ?? []).length;

test('sign: the options type-check under tsc --strict against the installed package\'s types (a p12 that is neither a path nor bytes is an error)', { timeout: COMMAND_MS }, async () => {
  const checked = await typecheckLibraryApp(app, ['embedded.ts', 'remote.ts'], COMMAND_MS);
  assert.equal(checked.code, 0, checked.describe());
});

describe('embedded: the library signs with the key the app gives', () => {
  let outcomes: Record<string, string>;
  let stampsAsked = 0;
  before(async () => {
    const asked = tsa.requests;
    outcomes = await runApp('embedded', {});
    stampsAsked = tsa.requests - asked;
  });

  test('sign: { p12: path, password }: one PAdES signature over the whole file that pdfsig trusts; imprint verify exits 0 naming the template', { timeout: COMMAND_MS }, async () => {
    assert.equal(outcomes.contract, 'written', JSON.stringify(outcomes));
    const file = path.join(app, 'contract.pdf');
    const report = pdfsig(file, pki);
    assertTrustedWholeSignature(report, file);
    assert.equal(signatureCount(report), 1, report);
    // The <Signature> box is the one filled: its appearance names the signer.
    assert.match(pdfText(fs.readFileSync(file), 2), /Digitally signed by Ada Signer/);
    const [signature] = (await verified(file)).signatures;
    assert.equal(signature!.level, 'B-B');
    assert.equal(signature!.imprint.template, 'signed-contract');
  });

  test('sign: { p12: Buffer, password, tsa }: PAdES B-T with the loopback authority\'s token', { timeout: COMMAND_MS }, async () => {
    assert.equal(outcomes.timestamped, 'written', JSON.stringify(outcomes));
    assert.equal(stampsAsked, 1, 'one token asked of the authority');
    const file = path.join(app, 'timestamped.pdf');
    assertTrustedWholeSignature(pdfsig(file, pki), file);
    const [signature] = (await verified(file)).signatures;
    assert.equal(signature!.level, 'B-T');
    assert.equal(signature!.timestamp?.valid, true);
    assert.equal(signature!.timestamp?.authority, 'Imprint Test TSA');
  });

  test('encrypt with sign: { p12: Uint8Array }: the box of an AES-256 file is filled, valid with the user or the owner password', { timeout: COMMAND_MS }, () => {
    assert.equal(outcomes.encrypted, 'written', JSON.stringify(outcomes));
    const file = path.join(app, 'encrypted.pdf');
    assertTrustedWholeSignature(pdfsig(file, pki, ['-upw', 'u']), file);
    assertTrustedWholeSignature(pdfsig(file, pki, ['-opw', 'o']), file);
  });

  test('a wrong password rejects with USAGE before anything renders: on an instance whose browser does not exist, not BROWSER_NOT_FOUND', () => {
    for (const name of ['wrong-password', 'wrong-password-file']) {
      assert.match(outcomes[name]!, /^USAGE: Cannot open .*signer\.p12: wrong password \(sign\.password\)/, JSON.stringify(outcomes));
      assert.ok(!fs.existsSync(path.join(app, `${name}.pdf`)));
    }
    // The same instance, given the right password, does try to render.
    assert.match(outcomes['right-password']!, /^BROWSER_NOT_FOUND: /, JSON.stringify(outcomes));
  });

  test('embedded sign: true (the service\'s team key) and a p12 that is no key are USAGE errors saying what to pass', () => {
    assert.match(outcomes['team-key']!, /^USAGE: sign: true signs with a team's key held by an Imprint service.*sign: \{ p12: /, JSON.stringify(outcomes));
    assert.match(outcomes['p12-number']!, /^USAGE: Invalid sign\.p12: got number/, JSON.stringify(outcomes));
  });
});

describe('remote: the service renders, the app signs; sign: true is still the team\'s key', { timeout: COMMAND_MS * 3 }, () => {
  const operator = cliWithDataDir(path.join(work, 'operator'));
  let teamPki: SigningPki;
  let serve: ServeProcess | undefined;
  let outcomes: Record<string, string>;
  let stampsAsked = 0;

  before(async () => {
    // The team's key is of another CA, so each PDF tells whose key signed it.
    teamPki = makeSigningPki(path.join(work, 'team-pki'));
    const key = await createTeamKey(operator);
    const stored = await operator.run(['team', 'signing-key', 'acme', '--p12', teamPki.signerP12], { env: { IMPRINT_SECRET: SECRET, IMPRINT_SIGN_PASSWORD: teamPki.password } });
    assert.equal(stored.code, 0, stored.describe());
    // No --allow-private: the service itself could not reach the loopback time-stamp authority.
    serve = await startServeProcess({ dataDir: operator.dataDir, env: { IMPRINT_SECRET: SECRET } });
    const asked = tsa.requests;
    outcomes = await runApp('remote', { API_URL: serve.url, API_KEY: key });
    stampsAsked = tsa.requests - asked;
  });

  after(async () => {
    assert.equal(await serve?.stop(), 0, serve?.output());
  });

  test('sign: { p12, password } on a published template: signed once, by the app\'s key (trusted with its CA, not the team\'s); verify names the template', { timeout: COMMAND_MS }, async () => {
    assert.equal(outcomes['own-key'], 'written', JSON.stringify(outcomes));
    const file = path.join(app, 'own-key.pdf');
    const report = pdfsig(file, pki);
    assertTrustedWholeSignature(report, file);
    assert.equal(signatureCount(report), 1, report);
    assert.doesNotMatch(pdfsig(file, teamPki), /Certificate is Trusted\./);
    const [signature] = (await verified(file)).signatures;
    assert.equal(signature!.imprint.template, 'contract');
  });

  test('sign: { p12, password, tsa } on generate: B-T, the token asked from the app\'s machine', { timeout: COMMAND_MS }, async () => {
    assert.equal(outcomes['own-key-tsa'], 'written', JSON.stringify(outcomes));
    assert.equal(stampsAsked, 1, 'one token asked of the authority');
    const file = path.join(app, 'own-key-tsa.pdf');
    assertTrustedWholeSignature(pdfsig(file, pki), file);
    assert.equal((await verified(file)).signatures[0]!.level, 'B-T');
  });

  test('sign: true is the service\'s team key: trusted with the team\'s CA, not the app\'s', { timeout: COMMAND_MS }, () => {
    assert.equal(outcomes['team-key'], 'written', JSON.stringify(outcomes));
    const file = path.join(app, 'team-key.pdf');
    assertTrustedWholeSignature(pdfsig(file, teamPki), file);
    assert.doesNotMatch(pdfsig(file, pki), /Certificate is Trusted\./);
  });

  test('a wrong password rejects with USAGE before any request (not NOT_FOUND for a template the service lacks); sign: true on a local file is USAGE', () => {
    assert.match(outcomes['wrong-password']!, /^USAGE: Cannot open .*signer\.p12: wrong password \(sign\.password\)/, JSON.stringify(outcomes));
    assert.match(outcomes['team-key-file']!, /^USAGE: sign: true signs with a team's key .*a template file renders on this machine/, JSON.stringify(outcomes));
  });
});
