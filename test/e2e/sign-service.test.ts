/**
 * A team's signing key held by the service: stored by the operator with `imprint team
 * signing-key` (sealed with IMPRINT_SECRET), used by a real `imprint serve` for A2 requests
 * and a job with `sign`, B-B and B-T (the loopback `openssl ts` authority, reached under the
 * outbound policy). A published template's `<Signature>` box (test/fixtures/sign, on page 2) is
 * filled by the team's signature through A1, a job's rows and an encrypted render, each with
 * the reason its props gave. A signed file at the service's page limit is returned (the
 * signature's update writes a page's dictionary again, which the count once took for a page).
 * The key cannot be read back: not from the database file, any GET endpoint of the API or the
 * dashboard, nor the service's log; pdfsig (NSS trusting only the test CA) judges every signed PDF.
 */
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { request } from 'undici';
import { execFileSync, spawnSync } from 'node:child_process';
import { cliWithDataDir, runCli, tempDir } from '../helpers/cli.js';
import { FINAL, waitFor } from '../helpers/jobs.js';
import { pdfInfo } from '../helpers/pdf.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { assertTrustedWholeSignature, makeSigningPki, pdfsig, type SigningPki } from '../helpers/signing-pki.js';
import { startTsa, type TsaServer } from '../helpers/tsa-server.js';
import { assertSignedContract, SIGNED_CONTRACT } from '../helpers/visible-signature.js';

const SECRET = 'test-server-secret-0123456789-abcdefghijklmnop';
/** The service's page limit: small, so a signed file at it is cheap to render (every other render here has 1 or 2 pages). */
const MAX_PAGES = 3;
const work = tempDir('imprint-sign-service-');
const operator = cliWithDataDir(path.join(work, 'data'));
let pki: SigningPki;
let tsa: TsaServer;
let serve: ServeProcess;
let key: string;
let bareKey: string;

/** The forms a leaked key would take: its PKCS#8 DER as base64, base64url and hex, its PEM body's first line, and the p12 password. */
function keyMaterial(): string[] {
  const der = createPrivateKey(fs.readFileSync(path.join(pki.dir, 'signer.key'))).export({ format: 'der', type: 'pkcs8' });
  const pem = fs.readFileSync(path.join(pki.dir, 'signer.key'), 'utf8').split('\n')[1]!;
  // Any 48-byte slice of the key, encoded each way, so a partial dump counts too.
  const slice = der.subarray(40, 88);
  return [der.toString('base64').slice(0, 64), slice.toString('base64'), slice.toString('base64url'), slice.toString('hex'), pem, pki.password, SECRET];
}

function assertNoKeyMaterial(text: string, where: string): void {
  for (const piece of keyMaterial()) assert.ok(!text.includes(piece), `${where} holds key material (${piece.slice(0, 12)}…)`);
}

const api = async (method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}, bearer = key) => {
  const answer = await request(`${serve.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = Buffer.from(await answer.body.arrayBuffer());
  return { status: answer.statusCode, headers: answer.headers, bytes, json: () => JSON.parse(bytes.toString()) };
};

before(async () => {
  pki = makeSigningPki(path.join(work, 'pki'));
  tsa = await startTsa(pki);
  for (const team of ['acme', 'bare']) assert.equal((await operator.run(['team', 'create', team])).code, 0);
  key = (await operator.run(['key', 'create', '--team', 'acme'])).stdout.toString().trim();
  bareKey = (await operator.run(['key', 'create', '--team', 'bare'])).stdout.toString().trim();

  const noSecret = await operator.run(['team', 'signing-key', 'acme', '--p12', pki.signerP12], { env: { IMPRINT_SIGN_PASSWORD: pki.password } });
  assert.equal(noSecret.code, 2, noSecret.describe());
  assert.match(noSecret.stderr, /IMPRINT_SECRET/);
  const stored = await operator.run(['team', 'signing-key', 'acme', '--p12', pki.signerP12], { env: { IMPRINT_SECRET: SECRET, IMPRINT_SIGN_PASSWORD: pki.password } });
  assert.equal(stored.code, 0, stored.describe());
  assert.match(stored.stderr, /CN=Ada Signer/);
  assertNoKeyMaterial(stored.stdout.toString() + stored.stderr, 'signing-key output');
  const shown = await operator.run(['team', 'signing-key', 'acme']);
  assert.equal(shown.code, 0, shown.describe());
  assert.equal(JSON.parse(shown.stdout.toString()).subject, 'CN=Ada Signer, O=ACME Invoicing');

  // The TSA listens on loopback: the operator lets renders reach private addresses.
  serve = await startServeProcess({ dataDir: operator.dataDir, args: ['--allow-private', '--log-level', 'info', '--max-pages', String(MAX_PAGES)], env: { IMPRINT_SECRET: SECRET } });
  // The contract with a <Signature> box, published as a user does.
  const published = await runCli(['publish', SIGNED_CONTRACT, '--id', 'contract', '--api-url', serve.url, '--api-key', key], { env: { IMPRINT_CONFIG_DIR: path.join(work, 'config') }, timeoutMs: 180_000 });
  assert.equal(published.code, 0, published.describe());
});

after(async () => {
  await serve?.stop();
  await tsa?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const html = '<h1>Signed by the service</h1>';

/** `bytes` written into the test's folder, for the tools that read a file. */
function saved(name: string, bytes: Buffer): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, bytes);
  return file;
}

test('A2 with sign: true is a PAdES B-B signature pdfsig trusts; with sign.tsa a B-T one from the loopback authority', async () => {
  const signed = await api('POST', '/api/generate', { html, sign: true });
  assert.equal(signed.status, 200, signed.bytes.toString().slice(0, 500));
  const file = saved('service-bb.pdf', signed.bytes);
  const report = pdfsig(file, pki);
  for (const line of ['Signature is Valid.', 'Total document signed', 'Certificate is Trusted.', 'ETSI.CAdES.detached', 'Ada Signer']) assert.ok(report.includes(line), report);

  const asked = tsa.requests;
  const stamped = await api('POST', '/api/generate', { html, sign: { tsa: tsa.url } });
  assert.equal(stamped.status, 200, stamped.bytes.toString().slice(0, 500));
  assert.equal(tsa.requests, asked + 1);
  const stampedFile = saved('service-bt.pdf', stamped.bytes);
  assert.match(pdfsig(stampedFile, pki), /Signature is Valid\.[\s\S]*Certificate is Trusted\./);
  assert.match(pdfsig(stampedFile, pki, ['-dump']) + stamped.bytes.toString('latin1'), /ETSI\.CAdES\.detached/);
});

test('a job with sign: every row signed', async () => {
  const submitted = await api('POST', '/api/jobs', { rows: [{ html: '<p>row 1</p>' }, { html: '<p>row 2</p>' }], sign: true });
  assert.equal(submitted.status, 202, submitted.bytes.toString());
  const { id } = submitted.json();
  const job = await waitFor(async () => (await api('GET', `/api/jobs/${id}`)).json(), (value) => FINAL.includes(value.status), `job ${id}`);
  assert.equal(job.status, 'completed', JSON.stringify(job));
  for (const row of job.rows as Array<{ row: number; url: string }>) {
    const pdf = await request(row.url);
    assert.equal(pdf.statusCode, 200);
    const file = saved(`job-row-${row.row}.pdf`, Buffer.from(await pdf.body.arrayBuffer()));
    assert.match(pdfsig(file, pki), /Signature is Valid\.[\s\S]*Certificate is Trusted\./, `row ${row.row}`);
  }
});

test("a team without a signing key is refused with a 400 that says how to get one; a bad sign field is a 400", async () => {
  const refused = await api('POST', '/api/generate', { html, sign: true }, {}, bareKey);
  assert.equal(refused.status, 400, refused.bytes.toString());
  assert.equal(refused.json().code, 'INVALID_INPUT');
  assert.match(refused.json().error, /no signing key.*imprint team signing-key/);
  const bad = await api('POST', '/api/generate', { html, sign: { tsa: 'ftp://x' } });
  assert.equal(bad.status, 400, bad.bytes.toString());
});

test('the key cannot be read back: not from the database file, any GET endpoint of the API or the dashboard, nor the log', async () => {
  for (const file of fs.readdirSync(operator.dataDir, { recursive: true, encoding: 'utf8' })) {
    const full = path.join(operator.dataDir, file);
    if (fs.statSync(full).isFile()) assertNoKeyMaterial(fs.readFileSync(full).toString('latin1'), `data folder file ${file}`);
  }
  const openapi = await api('GET', '/openapi.json');
  assert.equal(openapi.status, 200);
  assertNoKeyMaterial(openapi.bytes.toString(), '/openapi.json');
  const paths = Object.entries(openapi.json().paths as Record<string, Record<string, unknown>>).filter(([route, methods]) => 'get' in methods && !route.includes('{'));
  assert.ok(paths.length > 3, 'the API has GET endpoints to try');
  for (const [route] of paths) assertNoKeyMaterial((await api('GET', route)).bytes.toString('latin1'), `GET ${route}`);
  assert.ok(!JSON.stringify(openapi.json().paths).includes('signing-key'), 'no endpoint serves a signing key');

  // The dashboard, signed in as the team: its page and every GET of its API.
  const session = await request(`${serve.url}/dashboard/api/session`, { method: 'POST', headers: { origin: serve.url, 'content-type': 'application/json' }, body: JSON.stringify({ key }) });
  assert.equal(session.statusCode, 200);
  await session.body.dump();
  const cookie = String(session.headers['set-cookie']).split(';')[0]!;
  for (const route of ['/dashboard', '/dashboard/api/session', '/dashboard/api/templates', '/dashboard/api/usage', '/dashboard/api/keys']) {
    const page = await request(`${serve.url}${route}`, { headers: { cookie } });
    const text = Buffer.from(await page.body.arrayBuffer()).toString('latin1');
    assert.equal(page.statusCode, 200, `${route}: ${text.slice(0, 200)}`);
    assertNoKeyMaterial(text, `dashboard ${route}`);
  }
  assertNoKeyMaterial(serve.output(), "the service's log");
});

test('<Signature> in a published template, POST /api/documents/{id} with sign: true: the box on page 2 filled by the team\'s signature, with the reason the props gave', async () => {
  const reason = 'Approved by the service';
  const signed = await api('POST', '/api/documents/contract', { props: { reason }, sign: true });
  assert.equal(signed.status, 200, signed.bytes.toString().slice(0, 500));
  assertSignedContract(saved('contract-api.pdf', signed.bytes), pki, { reason });
});

test("a job of the template with sign: true: each row's box filled, with that row's reason", async () => {
  const reasons = ['Row one approved', 'Row two countersigned'];
  const submitted = await api('POST', '/api/jobs', { template: 'contract', rows: reasons.map((reason) => ({ reason })), sign: true });
  assert.equal(submitted.status, 202, submitted.bytes.toString());
  const { id } = submitted.json();
  const job = await waitFor(async () => (await api('GET', `/api/jobs/${id}`)).json(), (value) => FINAL.includes(value.status), `job ${id}`);
  assert.equal(job.status, 'completed', JSON.stringify(job));
  const rows = job.rows as Array<{ row: number; url: string }>;
  assert.deepEqual(rows.map((row) => row.row), [1, 2]);
  for (const row of rows) {
    const pdf = await request(row.url);
    assert.equal(pdf.statusCode, 200);
    assertSignedContract(saved(`contract-row-${row.row}.pdf`, Buffer.from(await pdf.body.arrayBuffer())), pki, { reason: reasons[row.row - 1]! });
  }
});

test('encrypt and sign: the box filled in an AES-256 file, which opens with the user password and not without', async () => {
  const reason = 'Approved, then sealed';
  const encrypt = { userPassword: 'open-sesame-4821', ownerPassword: 'owner-secret-9377' };
  const signed = await api('POST', '/api/documents/contract', { props: { reason }, encrypt, sign: true });
  assert.equal(signed.status, 200, signed.bytes.toString().slice(0, 500));
  const file = saved('contract-encrypted.pdf', signed.bytes);
  assertSignedContract(file, pki, { reason, password: encrypt.userPassword });
  assertTrustedWholeSignature(pdfsig(file, pki, ['-opw', encrypt.ownerPassword]), file);
  assert.match(execFileSync('qpdf', [`--password=${encrypt.ownerPassword}`, '--show-encryption', file], { timeout: 30_000 }).toString(), /^R = 6$/m);
  const closed = spawnSync('pdfinfo', [file], { timeout: 30_000, encoding: 'utf8' });
  assert.notEqual(closed.status, 0, 'pdfinfo cannot open it without the password');
  assert.match(closed.stderr, /Incorrect password/);
});

test(`a signed file at the page limit (${MAX_PAGES}) is returned; one page more is a 422 naming the limit`, async () => {
  const sheets = (count: number) => Array.from({ length: count }, (_, i) => `<h1${i ? ' style="break-before: page"' : ''}>Sheet ${i + 1}</h1>`).join('');
  const atLimit = await api('POST', '/api/generate', { html: sheets(MAX_PAGES), sign: true });
  assert.equal(atLimit.status, 200, atLimit.bytes.toString().slice(0, 500));
  const file = saved('at-limit-signed.pdf', atLimit.bytes);
  assert.equal(pdfInfo(file).pages, MAX_PAGES);
  assertTrustedWholeSignature(pdfsig(file, pki), file);
  // The case the count once got wrong: the signature's update wrote the first page's dictionary again.
  assert.equal(atLimit.bytes.toString('latin1').match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length, MAX_PAGES + 1);

  const over = await api('POST', '/api/generate', { html: sheets(MAX_PAGES + 1), sign: true });
  assert.equal(over.status, 422, over.bytes.toString().slice(0, 500));
  assert.equal(over.json().code, 'DOCUMENT_TOO_LARGE');
  assert.match(over.json().error, new RegExp(`has ${MAX_PAGES + 1} pages, more than the ${MAX_PAGES} pages per document`));
});
