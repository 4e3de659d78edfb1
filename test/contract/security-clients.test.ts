/**
 * Issue 5, slow and stalled clients: raw TCP sockets send half a request, dribble a body, or
 * go quiet, and the server closes them by itself; the service answers normally afterwards.
 * The bounds are short here (the defaults are seconds to a minute), and no assertion is about
 * time: each test waits for the server to close the socket, and the file's timeout is the
 * only clock.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { pdfText } from '../helpers/pdf.js';
import { describeReply, startTestService, type TestService } from './helpers/service.js';

/** A guard against a server that never closes: far above every bound used here. */
const TEST_TIMEOUT = { timeout: 30_000 };

interface RawConnection {
  socket: net.Socket;
  received(): string;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
}

function connect(serviceUrl: string): Promise<RawConnection> {
  const { hostname, port } = new URL(serviceUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.once('error', () => undefined); // a reset is a close too
    socket.once('connect', () => resolve({ socket, received: () => received, closed }));
    socket.once('error', reject);
  });
}

const host = (url: string) => new URL(url).host;

/** Headers of a POST /api/generate whose body is `length` bytes. */
const postHead = (url: string, key: string, length: number) =>
  `POST /api/generate HTTP/1.1\r\nHost: ${host(url)}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

function expect408(connection: RawConnection) {
  const text = connection.received();
  assert.match(text, /^HTTP\/1\.1 408 Request Timeout\r\n/, text);
  const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
  // Answered by Node before any request was parsed: there is no request, so no request id.
  assert.deepEqual(body, { error: body.error, code: 'REQUEST_TIMEOUT' });
  assert.match(body.error, /did not arrive in time/);
}

async function stillAnswers(service: TestService, key: string) {
  const health = await service.call('GET', '/healthz');
  assert.equal(health.status, 200, describeReply(health));
  const reply = await service.call('POST', '/api/generate', { key, body: { html: '<h1>Still answering</h1>' } });
  assert.equal(reply.status, 200, describeReply(reply));
  assert.match(pdfText(reply.body), /Still answering/);
}

describe("Node's bounds: headers, whole request, keep-alive", () => {
  let service: TestService;
  let key: string;

  before(async () => {
    service = await startTestService({ timeouts: { headersMs: 300, requestMs: 1000, idleMs: 10_000, keepAliveMs: 300 } });
    key = (await service.team('clients')).key;
  });
  after(() => service?.close());

  test('half the headers, then silence: 408 with an error object, connection closed', TEST_TIMEOUT, async () => {
    const connection = await connect(service.url);
    connection.socket.write(`POST /api/generate HTTP/1.1\r\nHost: ${host(service.url)}\r\nContent-Ty`);
    await connection.closed;
    expect408(connection);
  });

  test('the headers, half the body, then silence: 408, connection closed', TEST_TIMEOUT, async () => {
    const connection = await connect(service.url);
    const body = JSON.stringify({ html: '<p>never finished</p>' });
    connection.socket.write(postHead(service.url, key, body.length) + body.slice(0, 10));
    await connection.closed;
    expect408(connection);
  });

  test('a body dribbled a byte at a time (never idle, never done): 408, connection closed', TEST_TIMEOUT, async () => {
    const connection = await connect(service.url);
    connection.socket.write(postHead(service.url, key, 100_000));
    const drip = setInterval(() => connection.socket.writable && connection.socket.write(' '), 50);
    try {
      await connection.closed;
    } finally {
      clearInterval(drip);
    }
    expect408(connection);
  });

  test('an idle keep-alive connection is closed after its answer', TEST_TIMEOUT, async () => {
    const connection = await connect(service.url);
    connection.socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host(service.url)}\r\nConnection: keep-alive\r\n\r\n`);
    await connection.closed;
    assert.match(connection.received(), /^HTTP\/1\.1 200 OK\r\n/);
    assert.equal(connection.received().match(/HTTP\/1\.1 /g)?.length, 1, 'one answer, then the server closed');
  });

  test('a render longer than the request bound still answers: the bound is on receiving the request', TEST_TIMEOUT, async () => {
    const html = '<script>const start = Date.now(); while (Date.now() - start < 1200) {}</script><h1>Received in time</h1>';
    const reply = await service.call('POST', '/api/generate', { key, body: { html } });
    assert.equal(reply.status, 200, describeReply(reply));
    assert.match(pdfText(reply.body), /Received in time/);
  });

  test('the service still answers, and logged no error: a stalled client is routine', TEST_TIMEOUT, async () => {
    await stillAnswers(service, key);
    const errors = service.logs.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50);
    assert.deepEqual(errors, []);
  });
});

describe('the idle bound: a stalled client is closed, a long render is not', () => {
  let service: TestService;
  let key: string;

  before(async () => {
    service = await startTestService({ timeouts: { headersMs: 10_000, requestMs: 10_000, idleMs: 500, keepAliveMs: 5000 } });
    key = (await service.team('idle')).key;
  });
  after(() => service?.close());

  test('a connection that never sends anything is closed', TEST_TIMEOUT, async () => {
    const connection = await connect(service.url);
    await connection.closed;
    assert.equal(connection.received(), '');
  });

  test('a body that stops arriving is closed long before the request bound', TEST_TIMEOUT, async () => {
    const connection = await connect(service.url);
    const body = JSON.stringify({ html: '<p>stalled</p>' });
    connection.socket.write(postHead(service.url, key, body.length) + body.slice(0, 5));
    await connection.closed;
    assert.equal(connection.received(), '', 'closed without an answer: nobody is reading one');
    // The operator sees why (a line written as the connection closes: waited for, it comes from another process).
    await service.waitForLog((entry) => entry.msg === 'closing a stalled connection' && entry.receiving === true, 'closing a stalled connection');
  });

  test('a render that keeps the connection silent for longer than the idle bound still answers', TEST_TIMEOUT, async () => {
    // The page's own script holds the render for 1 s: twice the idle bound.
    const html = '<script>const start = Date.now(); while (Date.now() - start < 1000) {}</script><h1>Slow but fine</h1>';
    const reply = await service.call('POST', '/api/generate', { key, body: { html } });
    assert.equal(reply.status, 200, describeReply(reply));
    assert.match(pdfText(reply.body), /Slow but fine/);
  });

  test('the service still answers', TEST_TIMEOUT, () => stillAnswers(service, key));
});
