/**
 * Tokens never reach the log (issue 26): a download token is redacted by the route that
 * matched, after the router decoded the path, not by the raw URL. Every spelling a client can
 * send for a download link (percent-encoded letters, a query, doubled slashes, another case, a
 * trailing slash, the token itself percent-encoded) is served or refused as before, and the log
 * of the real service shows the route, never the token.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { pdfText } from '../helpers/pdf.js';
import { describeReply, fixtureArtifact, startTestService, type TestService } from './helpers/service.js';

let service: TestService;
let token: string;

before(async () => {
  service = await startTestService();
  const { key } = await service.team('acme');
  const published = await service.call('POST', '/api/templates', { key, body: { id: 'greeting', artifact: await fixtureArtifact('Greeting.tsx') } });
  assert.equal(published.status, 201, describeReply(published));
  const rendered = await service.call('POST', '/api/documents/greeting', { key, body: { props: { name: 'Logged' }, format: 'json' } });
  assert.equal(rendered.status, 200, describeReply(rendered));
  token = new URL(rendered.json().url).pathname.split('/').pop()!;
  assert.ok(token.length >= 43, token);
});

after(() => service?.close());

/** The token, or any long piece of it, in any log line. */
const leaked = () => service.logs.filter((line) => line.includes(token) || line.includes(token.slice(8, 30)) || line.toLowerCase().includes(token.slice(8, 30).toLowerCase()));

test('every spelling of a download link: served as before, logged by its route, the token never in the log', async () => {
  const encodedToken = `%${token.charCodeAt(0).toString(16).toUpperCase()}${token.slice(1)}`;
  const cases: [string, number, string][] = [
    [`/api/files/${token}`, 200, '/api/files/[token]'],
    [`/api/%66iles/${token}`, 200, '/api/files/[token]'],
    [`/api/fil%65s/${token}?x=1`, 200, '/api/files/[token]'],
    [`/api/files/${encodedToken}`, 200, '/api/files/[token]'],
    [`/api/files//${token}`, 401, '/api/files/[redacted]'],
    [`/API/FILES/${token}`, 401, '/api/files/[redacted]'],
    [`/api/files/${token}/`, 401, '/api/files/[redacted]'],
    [`/api/%66iles//${token}?x=${token}`, 401, '/api/files/[redacted]'],
  ];
  for (const [path, status, logged] of cases) {
    const from = service.logs.length;
    const reply = await service.call('GET', path);
    assert.equal(reply.status, status, `${path}: ${describeReply(reply)}`);
    if (status === 200) assert.match(pdfText(reply.body), /Hello Logged/);
    // No route matched: an unknown endpoint, refused first for its missing key, as any other.
    else assert.ok(!reply.text().includes(token), `the refusal does not repeat the token: ${reply.text()}`);
    const lines = service.logs.slice(from);
    assert.ok(lines.some((line) => line.includes(`"url":"${logged}"`)), `${path} logged as ${logged}:\n${lines.join('\n')}`);
    assert.deepEqual(leaked(), [], `${path} put the token in the log`);
  }
});

test("an unknown endpoint under a secret-bearing route, with a key: its 404 names the path without the token, in the answer and the log", async () => {
  const { key } = await service.team('bob');
  const from = service.logs.length;
  const reply = await service.call('GET', `/api/files//${token}`, { key });
  assert.equal(reply.status, 404, describeReply(reply));
  assert.equal(reply.json().error, 'No endpoint GET /api/files/[redacted]. The API is described at /openapi.json.');
  assert.ok(service.logs.slice(from).some((line) => line.includes('No endpoint GET /api/files/[redacted]')), service.logs.slice(from).join('\n'));
  assert.deepEqual(leaked(), []);
});
