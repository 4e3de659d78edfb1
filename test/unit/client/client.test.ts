/**
 * src/client/client.ts, against a real HTTP server on 127.0.0.1 (issue 41, cases 9 and 12): a
 * malformed API URL or a key with a line break is a usage error saying what to do, never
 * undici's or Node's own error; a key is not repeated into messages, even when a gateway's
 * error page echoes the request; a URL's user:password is not shown; and a key sent over plain
 * http to another machine is warned about once, through Node's warnings.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createClient } from '../../../src/client/client.js';

const KEY = 'imp_Secret0123456789abcdefSecret';
let server: http.Server;
let base: string;

before(async () => {
  // A gateway whose error page quotes the request it got, headers and all.
  server = http.createServer((request, response) => {
    response.writeHead(502, { 'content-type': 'text/html' }).end(`<h1>Bad gateway</h1><pre>${request.method} ${request.url}\nauthorization: ${request.headers.authorization}\nhost: ${request.headers.host}</pre>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const usage = (pattern: RegExp) => (error: { code?: string; message: string }) => {
  assert.equal(error.code, 'USAGE', error.message);
  assert.match(error.message, pattern);
  return true;
};

test('a malformed or non-http API URL: a usage error saying what to write', () => {
  assert.throws(() => createClient({ baseUrl: 'pdf.example.org', apiKey: KEY }), usage(/Invalid API URL "pdf\.example\.org": give an absolute address such as https:\/\//));
  assert.throws(() => createClient({ baseUrl: 'ftp://pdf.example.org', apiKey: KEY }), usage(/must start with http:\/\/ or https:\/\//));
  assert.throws(() => createClient({ baseUrl: 'http://bob:pw@[bad', apiKey: KEY }), (error: Error) => !error.message.includes('pw') && usage(/Invalid API URL/)(error));
});

test('a key with a line break, a control character or a space at an end: a usage error that does not repeat the key', () => {
  for (const key of [`${KEY}\n`, `${KEY}\r\nX-Injected: 1`, `${KEY}\u0000`, ` ${KEY}`]) {
    assert.throws(() => createClient({ baseUrl: base, apiKey: key }), (error: { code?: string; message: string }) => {
      usage(/The API key holds a line break, a space at an end or a control character: copy it again/)(error);
      assert.ok(!error.message.includes('Secret0123'), error.message);
      return true;
    });
  }
});

test("a gateway's error page that echoes the request: the key and its header are redacted from the error", async () => {
  const client = createClient({ baseUrl: base, apiKey: KEY });
  try {
    await assert.rejects(client.me(), (error: Error & { status?: number; serverMessage?: string }) => {
      assert.equal(error.status, 502);
      assert.match(error.message, /authorization: \[redacted\]/);
      assert.ok(!error.message.includes('Secret0123') && !error.serverMessage?.includes('Secret0123'), error.message);
      return true;
    });
  } finally {
    await client.close();
  }
});

test("a URL's user:password is not shown in the errors that name the URL", async () => {
  const closed = await new Promise<number>((resolve) => {
    const probe = http.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const client = createClient({ baseUrl: `http://bob:hunter2@127.0.0.1:${closed}`, apiKey: KEY });
  try {
    await assert.rejects(client.me(), (error: Error) => {
      assert.match(error.message, /Could not reach http:\/\/127\.0\.0\.1:\d+\/api\/me: connection refused/);
      assert.ok(!error.message.includes('hunter2'), error.message);
      return true;
    });
  } finally {
    await client.close();
  }
});

test('a key over plain http to another machine is warned about once (IMPRINT_PLAIN_HTTP_KEY); https, loopback and no key are not', async () => {
  const warnings: { name: string; code?: string; message: string }[] = [];
  const listen = (warning: Error & { code?: string }) => warnings.push({ name: warning.name, code: warning.code, message: warning.message });
  process.on('warning', listen);
  try {
    createClient({ baseUrl: 'https://pdf.example.org', apiKey: KEY });
    createClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: KEY });
    createClient({ baseUrl: 'http://localhost:8080', apiKey: KEY });
    createClient({ baseUrl: 'http://[::1]:8080', apiKey: KEY });
    createClient({ baseUrl: 'http://pdf.internal:8080' });
    createClient({ baseUrl: 'http://pdf.internal:8080', apiKey: KEY });
    createClient({ baseUrl: 'http://pdf.internal:8080/prefix', apiKey: KEY });
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings.map((warning) => [warning.name, warning.code]), [['ImprintWarning', 'IMPRINT_PLAIN_HTTP_KEY']]);
    assert.match(warnings[0]!.message, /API key is sent over plain http to pdf\.internal:8080/);
  } finally {
    process.off('warning', listen);
  }
});
