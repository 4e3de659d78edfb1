/**
 * api.md Part E over HTTP, against the real service: `version` in A1 bodies, an unknown
 * version answered 404 with the versions there are, `POST /api/templates/{id}/rollback`
 * answered 201 like a publish, and who published each version (the API key id).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pdfText } from '../helpers/pdf.js';
import { describeReply, fixtureArtifact, startTestService, type Reply, type TestService } from './helpers/service.js';

let service: TestService;
let acme: { key: string; keyId: string };
let other: { key: string };

function expectError(reply: Reply, status: number, message: RegExp) {
  assert.equal(reply.status, status, describeReply(reply));
  assert.match(reply.json().error, message);
}

before(async () => {
  service = await startTestService();
  acme = await service.team('acme');
  other = await service.team('other');
  const [greeting, landscape] = await Promise.all([fixtureArtifact('Greeting.tsx'), fixtureArtifact('Landscape.tsx')]);
  // Version 1 greets, version 2 is another template altogether: which one printed is plain in the text.
  for (const artifact of [greeting, landscape]) {
    const reply = await service.call('POST', '/api/templates', { key: acme.key, body: { id: 'doc', artifact } });
    assert.equal(reply.status, 201, describeReply(reply));
  }
});

after(() => service?.close());

const render = (body: unknown, key = acme.key) => service.call('POST', '/api/documents/doc', { key, body });

describe('version in A1 bodies', () => {
  test('renders the version asked for; without one, the latest', async () => {
    const v1 = await render({ props: { name: 'Ada' }, version: 1 });
    assert.equal(v1.status, 200, describeReply(v1));
    assert.match(pdfText(v1.body), /Hello Ada/);
    const latest = await render({ props: { name: 'Ada' } });
    assert.equal(latest.status, 200, describeReply(latest));
    assert.doesNotMatch(pdfText(latest.body), /Hello Ada/);
  });

  test('an unknown version is a 404 listing the versions there are; nothing is counted', async () => {
    const teamId = (await service.operator.getTeam('acme'))!.id;
    const used = await service.operator.usage(teamId);
    expectError(await render({ props: {}, version: 7 }), 404, /no version 7; its versions are 1-2/);
    assert.equal(await service.operator.usage(teamId), used);
  });

  test('a version that is not a whole number from 1 is a 400 naming the field and its range', async () => {
    for (const version of [0, -1, 1.5, '1', null, 2 ** 31]) {
      expectError(await render({ props: {}, version }), 400, /Invalid version .*: use a whole number from 1 to 2147483647/);
    }
  });

  test("another team's template stays a 404, with or without a version", async () => {
    expectError(await render({ props: {}, version: 1 }, other.key), 404, /No template "doc"/);
  });
});

describe('POST /api/templates/{id}/rollback', () => {
  test('answers 201 like a publish: a new latest version with the old content; the history stays', async () => {
    const before = (await service.call('GET', '/api/templates/doc', { key: acme.key })).json();
    const reply = await service.call('POST', '/api/templates/doc/rollback', { key: acme.key, body: { version: 1 } });
    assert.equal(reply.status, 201, describeReply(reply));
    const rolled = reply.json();
    assert.equal(rolled.id, 'doc');
    assert.equal(rolled.version, 3);
    assert.equal(rolled.rollbackOf, 1);
    assert.ok(!Number.isNaN(Date.parse(rolled.publishedAt)));

    const latest = await render({ props: { name: 'Grace' } });
    assert.match(pdfText(latest.body), /Hello Grace/);

    const details = (await service.call('GET', '/api/templates/doc', { key: acme.key })).json();
    assert.deepEqual(details.versions.slice(0, 2), before.versions);
    const third = details.versions[2];
    assert.equal(third.artifactSha256, before.versions[0].artifactSha256);
    assert.equal(third.bytes, before.versions[0].bytes);
    assert.equal(third.rollbackOf, 1);
    for (const version of details.versions) assert.equal(version.publishedBy, acme.keyId, 'each version names the key that published it');
    const listed = (await service.call('GET', '/api/templates', { key: acme.key })).json();
    assert.equal(listed.templates.find((t: { id: string }) => t.id === 'doc').latestVersion, 3);
  });

  test('bad requests: the version named, unknown ones listed, other teams see nothing', async () => {
    for (const body of [{}, { version: 0 }, { version: 'one' }]) {
      expectError(await service.call('POST', '/api/templates/doc/rollback', { key: acme.key, body }), 400, /version/);
    }
    expectError(await service.call('POST', '/api/templates/doc/rollback', { key: acme.key, body: { version: 9 } }), 404, /no version 9; its versions are 1-3/);
    expectError(await service.call('POST', '/api/templates/nope/rollback', { key: acme.key, body: { version: 1 } }), 404, /No template "nope"/);
    expectError(await service.call('POST', '/api/templates/doc/rollback', { key: other.key, body: { version: 1 } }), 404, /No template "doc"/);
    expectError(await service.call('POST', '/api/templates/doc/rollback', { body: { version: 1 } }), 401, /API key/);
  });
});
