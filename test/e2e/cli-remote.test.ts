/**
 * The remote mode end to end: `imprint serve` as a child process on a real data folder, a team
 * and key made with the operator commands, then the CLI (another child process, with its own
 * temporary config folder) logs in, publishes, lists, renders in the three forms and
 * generates, printing what the embedded mode prints. Ends with a restart of the service.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import { cliWithDataDir, EXAMPLES, runCli, tempDir, type CliOptions } from '../helpers/cli.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { isPdf, pdfInfo, pdfText } from '../helpers/pdf.js';
import { freePort } from '../helpers/free-port.js';

const invoice = path.join(EXAMPLES, 'invoice', 'Invoice.tsx');
const invoiceProps = path.join(EXAMPLES, 'invoice', 'props.json');
const invoiceData = JSON.parse(fs.readFileSync(invoiceProps, 'utf8'));

type Serve = ServeProcess;

/** Starts `imprint serve` and waits for the line that says where it listens. */
const startServe = (dataDir: string, args: string[] = []): Promise<Serve> => startServeProcess({ dataDir, args });

async function download(url: string): Promise<Buffer> {
  const response = await request(url);
  assert.equal(response.statusCode, 200, `GET ${url}`);
  return Buffer.from(await response.body.arrayBuffer());
}

const serviceData = tempDir('imprint-serve-');
const operator = cliWithDataDir(serviceData);
let serve: Serve;
let key: string;

/** The CLI of a user: its own config folder and data folder, nothing from the real user. */
function userCli(configDir = tempDir('imprint-config-'), dataDir = tempDir('imprint-user-')) {
  return {
    configDir,
    run: (args: string[], options: CliOptions = {}) =>
      runCli(args, {
        ...options,
        env: { IMPRINT_CONFIG_DIR: configDir, IMPRINT_DATA_DIR: dataDir, IMPRINT_API_URL: undefined, IMPRINT_API_KEY: undefined, IMPRINT_MODE: undefined, ...options.env },
      }),
  };
}

before(async () => {
  const team = await operator.run(['team', 'create', 'acme', '--limit', '100']);
  assert.equal(team.code, 0, team.describe());
  const created = await operator.run(['key', 'create', '--team', 'acme']);
  assert.equal(created.code, 0, created.describe());
  key = created.stdout.toString().trim();
  assert.match(key, /^imp_[A-Za-z0-9_-]{43}$/);
  serve = await startServe(serviceData);
});

after(async () => {
  const code = await serve?.stop();
  assert.equal(code, 0, `serve stops cleanly on SIGTERM:\n${serve?.output()}`);
});

describe('operator commands', () => {
  test('team list, set-limit; key list, revoke', async () => {
    const listed = await operator.run(['team', 'list', '--json']);
    assert.equal(listed.code, 0, listed.describe());
    assert.deepEqual(
      JSON.parse(listed.stdout.toString()).map(({ name, generationLimit }: { name: string; generationLimit: number }) => ({ name, generationLimit })),
      [{ name: 'acme', generationLimit: 100 }],
    );
    assert.equal((await operator.run(['team', 'create', 'spare'])).code, 0);
    const raised = await operator.run(['team', 'set-limit', 'spare', '5']);
    assert.equal(raised.code, 0, raised.describe());
    assert.match((await operator.run(['team', 'list'])).stdout.toString(), /^spare\t5\t0\t/m);

    const spareKey = (await operator.run(['key', 'create', '--team', 'spare'])).stdout.toString().trim();
    const keys = JSON.parse((await operator.run(['key', 'list', '--team', 'spare', '--json'])).stdout.toString());
    assert.equal(keys.length, 1);
    assert.equal(keys[0].revokedAt, null);
    assert.ok(!JSON.stringify(keys).includes(spareKey), 'the key itself is never listed');

    const cli = userCli();
    assert.equal((await cli.run(['whoami', '--api-url', serve.url, '--api-key', spareKey])).code, 0);
    const revoked = await operator.run(['key', 'revoke', keys[0].id]);
    assert.equal(revoked.code, 0, revoked.describe());
    const refused = await cli.run(['whoami', '--api-url', serve.url, '--api-key', spareKey]);
    assert.equal(refused.code, 1, refused.describe());
    assert.match(refused.stderr, /imprint login/);
  });

  test('mistakes are usage errors or name what is missing', async () => {
    const duplicate = await operator.run(['team', 'create', 'acme']);
    assert.equal(duplicate.code, 1, duplicate.describe());
    assert.match(duplicate.stderr, /already exists/);
    const badLimit = await operator.run(['team', 'set-limit', 'acme', 'lots']);
    assert.equal(badLimit.code, 2, badLimit.describe());
    const noTeam = await operator.run(['key', 'create', '--team', 'nobody']);
    assert.equal(noTeam.code, 1, noTeam.describe());
    assert.match(noTeam.stderr, /No team named "nobody"/);
  });
});

describe('remote mode after `imprint login`', () => {
  const cli = userCli();
  const embedded = cliWithDataDir();

  before(async () => {
    const login = await cli.run(['login', '--api-url', serve.url, '--api-key', key]);
    assert.equal(login.code, 0, login.describe());
    assert.match(login.stderr, /Logged in to .* as team acme/);
    const stored = JSON.parse(fs.readFileSync(path.join(cli.configDir, 'config.json'), 'utf8'));
    assert.deepEqual(stored, { apiUrl: serve.url, apiKey: key });
    assert.equal(fs.statSync(path.join(cli.configDir, 'config.json')).mode & 0o077, 0, 'the config file is private');
  });

  test('whoami shows the URL and the team', async () => {
    const result = await cli.run(['whoami']);
    assert.equal(result.code, 0, result.describe());
    assert.match(result.stdout.toString(), new RegExp(`API:\\s+${serve.url}`));
    assert.match(result.stdout.toString(), /Team:\s+acme/);
  });

  test('publish uploads the bundle and prints what embedded mode prints', async () => {
    const first = await cli.run(['publish', invoice]);
    assert.equal(first.code, 0, first.describe());
    assert.equal(first.stdout.toString(), 'Published invoice version 1\n');
    const second = await cli.run(['publish', invoice, '--json']);
    assert.equal(second.code, 0, second.describe());
    const published = JSON.parse(second.stdout.toString());
    assert.deepEqual(Object.keys(published), ['id', 'uuid', 'version', 'publishedAt']);
    assert.equal(published.version, 2);

    const local = await embedded.run(['publish', invoice, '--json']);
    assert.deepEqual(Object.keys(JSON.parse(local.stdout.toString())), Object.keys(published), 'same fields as embedded');
  });

  test('list prints the same shapes as embedded mode', async () => {
    const json = await cli.run(['list', '--json']);
    assert.equal(json.code, 0, json.describe());
    const [entry, ...rest] = JSON.parse(json.stdout.toString());
    assert.equal(rest.length, 0);
    assert.deepEqual(Object.keys(entry), ['id', 'latestVersion', 'publishedAt']);
    assert.equal(entry.id, 'invoice');
    assert.equal(entry.latestVersion, 2);
    assert.match((await cli.run(['list'])).stdout.toString(), /^invoice\t2\t\d{4}-/);
  });

  test('render: a PDF with the same text as embedded mode for the same props', async () => {
    const remote = await cli.run(['render', 'invoice', '--props', invoiceProps]);
    assert.equal(remote.code, 0, remote.describe());
    assert.ok(isPdf(remote.stdout));
    const local = await embedded.run(['render', 'invoice', '--props', invoiceProps]);
    assert.equal(local.code, 0, local.describe());
    assert.equal(pdfText(remote.stdout), pdfText(local.stdout));
    assert.deepEqual(pdfInfo(remote.stdout), pdfInfo(local.stdout));
    assert.ok(pdfText(remote.stdout).includes(invoiceData.invoiceNo));
  });

  test('render -o writes the file; --size and --orientation reach the service', async () => {
    const file = path.join(tempDir(), 'remote.pdf');
    const result = await cli.run(['render', 'invoice', '--props', invoiceProps, '-o', file, '--size', 'letter', '--orientation', 'landscape']);
    assert.equal(result.code, 0, result.describe());
    const info = pdfInfo(file);
    assert.ok(Math.abs(info.widthPt - 792) <= 1 && Math.abs(info.heightPt - 612) <= 1, `${info.widthPt}x${info.heightPt}`);
  });

  test('render --format base64 prints {"data"}; --format json prints the service\'s download URL', async () => {
    const base64 = await cli.run(['render', 'invoice', '--props', '-', '--format', 'base64'], { stdin: JSON.stringify({ ...invoiceData, invoiceNo: 'INV-REMOTE-64' }) });
    assert.equal(base64.code, 0, base64.describe());
    const data = JSON.parse(base64.stdout.toString());
    assert.deepEqual(Object.keys(data), ['data']);
    assert.match(pdfText(Buffer.from(data.data, 'base64')), /INV-REMOTE-64/);

    const linked = await cli.run(['render', 'invoice', '--props', invoiceProps, '--format', 'json']);
    assert.equal(linked.code, 0, linked.describe());
    const body = JSON.parse(linked.stdout.toString());
    assert.deepEqual(Object.keys(body), ['url']);
    assert.ok(body.url.startsWith(`${serve.url}/api/files/`), body.url);
    assert.ok(pdfText(await download(body.url)).includes(invoiceData.invoiceNo));
  });

  test('generate in the three forms', async () => {
    const html = path.join(tempDir(), 'page.html');
    fs.writeFileSync(html, '<h1>Generated remotely</h1>');
    const pdf = await cli.run(['generate', '--html', html]);
    assert.equal(pdf.code, 0, pdf.describe());
    assert.match(pdfText(pdf.stdout), /Generated remotely/);
    const base64 = await cli.run(['generate', '--html', '-', '--format', 'base64'], { stdin: '<p>piped html</p>' });
    assert.match(pdfText(Buffer.from(JSON.parse(base64.stdout.toString()).data, 'base64')), /piped html/);
    const linked = await cli.run(['generate', '--html', html, '--format', 'json']);
    assert.match(pdfText(await download(JSON.parse(linked.stdout.toString()).url)), /Generated remotely/);
  });

  test('a local .tsx path still renders locally: the invoice of its props, and no service contacted', async () => {
    // The login points at a listener that counts connections and refuses every key: a render
    // that contacted the service would reach it (and fail).
    const connections: net.Socket[] = [];
    const listener = net.createServer((socket) => {
      connections.push(socket);
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: 23\r\nconnection: close\r\n\r\n{"error":"not a key"} \n');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const apiUrl = `http://127.0.0.1:${(listener.address() as net.AddressInfo).port}`;
    try {
      const result = await cli.run(['render', invoice, '--props', invoiceProps], { env: { IMPRINT_API_URL: apiUrl, IMPRINT_API_KEY: key } });
      assert.equal(result.code, 0, result.describe());
      const text = pdfText(result.stdout);
      for (const expected of [invoiceData.invoiceNo, invoiceData.customer.name, invoiceData.items[0].description]) assert.ok(text.includes(expected), `${expected} in:\n${text}`);
      assert.equal(connections.length, 0, 'the render contacted the service');
      // The control: the same CLI, asked for a published id, does contact it.
      const remote = await cli.run(['render', 'invoice', '--props', invoiceProps], { env: { IMPRINT_API_URL: apiUrl, IMPRINT_API_KEY: key } });
      assert.notEqual(remote.code, 0, remote.describe());
      assert.ok(connections.length > 0, 'a published id is rendered by the service');
    } finally {
      for (const socket of connections) socket.destroy();
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  test('errors: unknown id points at imprint list; props checked against the published type; no --props says why', async () => {
    const unknown = await cli.run(['render', 'no-such-template', '--props', invoiceProps]);
    assert.equal(unknown.code, 1, unknown.describe());
    assert.match(unknown.stderr, /no-such-template/);
    assert.match(unknown.stderr, /imprint list/);
    // publish sent the schema derived from the props type: the service checks props with it.
    const wrong = await cli.run(['render', 'invoice', '--props', '-'], { stdin: JSON.stringify({ ...invoiceData, invoiceNo: 42 }) });
    assert.equal(wrong.code, 1, wrong.describe());
    assert.match(wrong.stderr, /invoiceNo/);
    const noProps = await cli.run(['render', 'invoice']);
    assert.equal(noProps.code, 2, noProps.describe());
    assert.match(noProps.stderr, /--props/);
    assert.equal(noProps.stdout.length, 0);
  });

  test('--embedded overrides the login; logout returns to embedded mode', async () => {
    const local = await cli.run(['list', '--json', '--embedded']);
    assert.equal(local.code, 0, local.describe());
    assert.deepEqual(JSON.parse(local.stdout.toString()), []);

    const out = await cli.run(['logout']);
    assert.equal(out.code, 0, out.describe());
    const whoami = await cli.run(['whoami']);
    assert.equal(whoami.code, 2, whoami.describe());
    assert.match(whoami.stderr, /Not logged in/);
    assert.deepEqual(JSON.parse((await cli.run(['list', '--json'])).stdout.toString()), [], 'embedded again');
  });
});

describe('remote mode from flags and environment, and its failures', () => {
  test('IMPRINT_API_URL and IMPRINT_API_KEY select remote mode without a login', async () => {
    const cli = userCli();
    const result = await cli.run(['list', '--json'], { env: { IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: key } });
    assert.equal(result.code, 0, result.describe());
    assert.equal(JSON.parse(result.stdout.toString())[0].id, 'invoice');
    const forced = await cli.run(['list', '--json'], { env: { IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: key, IMPRINT_MODE: 'embedded' } });
    assert.deepEqual(JSON.parse(forced.stdout.toString()), []);
  });

  test('--remote without a URL and key is a usage error saying how to log in', async () => {
    const result = await userCli().run(['list', '--remote']);
    assert.equal(result.code, 2, result.describe());
    assert.match(result.stderr, /imprint login/);
  });

  test('login without a terminal needs both flags, and refuses a wrong key without storing it', async () => {
    const cli = userCli();
    const missing = await cli.run(['login', '--api-url', serve.url]);
    assert.equal(missing.code, 2, missing.describe());
    assert.match(missing.stderr, /--api-key/);
    const wrong = await cli.run(['login', '--api-url', serve.url, '--api-key', 'imp_wrong']);
    assert.equal(wrong.code, 1, wrong.describe());
    assert.match(wrong.stderr, /refused the API key/);
    assert.ok(!fs.existsSync(path.join(cli.configDir, 'config.json')), 'nothing stored');
  });

  test('a service that cannot be reached is named', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const result = await userCli().run(['list', '--api-url', url, '--api-key', key]);
    assert.equal(result.code, 1, result.describe());
    assert.ok(result.stderr.includes(url), result.stderr);
    assert.match(result.stderr, /Could not reach/);
  });

  test('422: the generation limit, in words', async () => {
    await operator.run(['team', 'create', 'tiny', '--limit', '1']);
    const tinyKey = (await operator.run(['key', 'create', '--team', 'tiny'])).stdout.toString().trim();
    const cli = userCli();
    const env = { IMPRINT_API_URL: serve.url, IMPRINT_API_KEY: tinyKey };
    assert.equal((await cli.run(['generate', '--html', '-'], { stdin: '<p>one</p>', env })).code, 0);
    const refused = await cli.run(['generate', '--html', '-'], { stdin: '<p>two</p>', env });
    assert.equal(refused.code, 1, refused.describe());
    assert.match(refused.stderr, /limit/i);
    assert.equal(refused.stdout.length, 0);
  });
});

describe('a restart of the service', () => {
  test('a published template and an issued download URL both still work after a restart', async () => {
    const dataDir = tempDir('imprint-restart-');
    const admin = cliWithDataDir(dataDir);
    await admin.run(['team', 'create', 'acme']);
    const restartKey = (await admin.run(['key', 'create', '--team', 'acme'])).stdout.toString().trim();
    const port = String(await freePort());
    let running = await startServe(dataDir, ['--port', port]);
    const env = { IMPRINT_API_URL: running.url, IMPRINT_API_KEY: restartKey };
    const cli = userCli();
    try {
      assert.equal((await cli.run(['publish', invoice], { env })).code, 0);
      const linked = await cli.run(['render', 'invoice', '--props', invoiceProps, '--format', 'json'], { env });
      assert.equal(linked.code, 0, linked.describe());
      const { url } = JSON.parse(linked.stdout.toString());
      assert.ok(url.startsWith(`${running.url}/api/files/`), linked.describe());

      assert.equal(await running.stop(), 0, running.output());
      running = await startServe(dataDir, ['--port', port]);

      assert.ok(pdfText(await download(url)).includes(invoiceData.invoiceNo), 'the URL issued before the restart');
      const again = await cli.run(['render', 'invoice', '--props', invoiceProps], { env });
      assert.equal(again.code, 0, again.describe());
      assert.ok(pdfText(again.stdout).includes(invoiceData.invoiceNo), 'the template published before the restart');
    } finally {
      assert.equal(await running.stop(), 0, running.output());
    }
  });
});

describe('the CLI decides by the answer\'s code, never by its words', () => {
  /** A service stand-in on 127.0.0.1 that answers every request with `answer`: codes whose words say otherwise. */
  let answer: { status: number; body: object } = { status: 500, body: { error: 'no answer set' } };
  let fake: http.Server;
  let fakeUrl: string;
  before(async () => {
    fake = http.createServer((incoming, response) => {
      incoming.resume();
      incoming.on('end', () => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body)));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as net.AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  const generate = (body: { status: number; body: object }) => {
    answer = body;
    return userCli().run(['generate', '--html', '-'], { stdin: '<p>x</p>', env: { IMPRINT_API_URL: fakeUrl, IMPRINT_API_KEY: 'k' } });
  };
  const LIMIT_WORDS = 'Team "acme" has used all 2 generations allowed for 2025-01 (UTC).';
  const TOO_LARGE_WORDS = 'The document has 9 pages, more than the 1 pages per document this service renders.';

  test('422: DOCUMENT_TOO_LARGE and LIMIT_EXCEEDED by their code, whatever the message says; without a code, the contract\'s limit', async () => {
    const tooLarge = await generate({ status: 422, body: { error: LIMIT_WORDS, code: 'DOCUMENT_TOO_LARGE' } });
    assert.equal(tooLarge.code, 1, tooLarge.describe());
    assert.ok(tooLarge.stderr.includes(`Document too large: ${LIMIT_WORDS}`), tooLarge.stderr);
    const limit = await generate({ status: 422, body: { error: TOO_LARGE_WORDS, code: 'LIMIT_EXCEEDED' } });
    assert.equal(limit.code, 1, limit.describe());
    assert.ok(limit.stderr.includes(`Limit reached: ${TOO_LARGE_WORDS}`), limit.stderr);
    const proxy = await generate({ status: 422, body: { error: TOO_LARGE_WORDS } });
    assert.ok(proxy.stderr.includes(`Limit reached: ${TOO_LARGE_WORDS}`), proxy.stderr);
    assert.equal(proxy.stdout.length, 0);
  });

  test('404: ROUTE_NOT_FOUND says to check the API URL, NOT_FOUND keeps the service\'s words', async () => {
    const route = await generate({ status: 404, body: { error: 'No endpoint POST /api/generate. The API is described at /openapi.json.', code: 'ROUTE_NOT_FOUND' } });
    assert.equal(route.code, 1, route.describe());
    assert.match(route.stderr, new RegExp(`The Imprint API at ${fakeUrl} has no such endpoint: No endpoint POST /api/generate\\..*base address`));
    assert.doesNotMatch(route.stderr, /imprint list/);
    const template = await generate({ status: 404, body: { error: 'No template "x" in this team.', code: 'NOT_FOUND' } });
    assert.equal(template.code, 1, template.describe());
    assert.match(template.stderr, /No template "x" in this team\./);
  });

  test('503 DRAINING is the service\'s failure, said with its status', async () => {
    const draining = await generate({ status: 503, body: { error: 'The service is shutting down.', code: 'DRAINING' } });
    assert.equal(draining.code, 1, draining.describe());
    assert.ok(draining.stderr.includes(`The Imprint API at ${fakeUrl} failed (HTTP 503): The service is shutting down.`), draining.stderr);
  });
});
