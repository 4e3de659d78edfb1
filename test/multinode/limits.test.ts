/**
 * The monthly generation limit across real `imprint serve` nodes on one PostgreSQL (and one
 * S3 bucket): exact
 * under 60 concurrent renders spread over 3 nodes, and a node killed mid-render gives its
 * reservations back once their lease (--reservation-lease, shortened here) has run out.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { call, startFleet, waitFor, type Fleet } from '../helpers/fleet.js';
import { startHeldImages, type HeldImages } from '../helpers/held-images.js';
import { pdfText } from '../helpers/pdf.js';
import { describeReply, fixtureArtifact } from '../contract/helpers/service.js';

const LEASE_MS = 10_000;
let fleet: Fleet;
let held: HeldImages;

before(async () => {
  held = await startHeldImages();
  fleet = await startFleet({
    nodes: 3,
    // Short enough to wait for, longer than the render timeout as the service demands; the
    // held-image server is on loopback.
    args: ['--render-timeout', '8s', '--reservation-lease', `${LEASE_MS}ms`, '--allow-host', '127.0.0.1'],
  });
  // Each node's browser up before the clocks start (a cold launch on a loaded machine is slow).
  const warm = await fleet.team('warm-up', 1000);
  for (const node of fleet.nodes) {
    const reply = await call(node.url, 'POST', '/api/generate', warm, { html: '<p>warm</p>' });
    assert.equal(reply.status, 200, describeReply(reply));
  }
});

after(async () => {
  await fleet?.close();
  await held?.close();
});

const usedThisMonth = async (base: string, key: string) => {
  const me = await call(base, 'GET', '/api/me', key);
  assert.equal(me.status, 200, describeReply(me));
  return me.json().team.usedThisMonth as number;
};

test('3 nodes, 60 concurrent renders, limit 10: exactly 10 PDFs and 50 answers of 422', { timeout: 180_000 }, async () => {
  const key = await fleet.team('exact', 10);
  const artifact = await fixtureArtifact('Greeting.tsx');
  const published = await call(fleet.nodes[0].url, 'POST', '/api/templates', key, { id: 'greeting', artifact });
  assert.equal(published.status, 201, describeReply(published));

  const started = Date.now();
  const replies = await Promise.all(
    Array.from({ length: 60 }, (_, i) => call(fleet.nodes[i % 3].url, 'POST', '/api/documents/greeting', key, { props: { name: `Person ${i}` } })),
  );
  const elapsed = Date.now() - started;
  const byStatus = new Map<number, number>();
  for (const reply of replies) byStatus.set(reply.status, (byStatus.get(reply.status) ?? 0) + 1);
  assert.deepEqual(Object.fromEntries(byStatus), { 200: 10, 422: 50 }, replies.filter((r) => r.status !== 200 && r.status !== 422).map(describeReply).join('\n'));
  for (const [i, reply] of replies.entries()) {
    if (reply.status === 200) assert.match(pdfText(reply.body), new RegExp(`Hello Person ${i}\\b`));
    else assert.equal(reply.json().code, 'LIMIT_EXCEEDED', describeReply(reply));
  }
  // Every node and the operator's command see the same count.
  for (const node of fleet.nodes) assert.equal(await usedThisMonth(node.url, key), 10);
  const teams = await runCli(['team', 'list', '--json', '--database', fleet.databaseUrl], { env: { IMPRINT_DATA_DIR: fleet.nodes[0].dataDir } });
  assert.equal(teams.code, 0, teams.describe());
  const exact = JSON.parse(teams.stdout.toString()).find((t: { name: string }) => t.name === 'exact');
  assert.equal(exact.usedThisMonth, 10);
  console.log(`# 60 renders over 3 nodes: ${byStatus.get(200)} × 200, ${byStatus.get(422)} × 422 in ${elapsed} ms`);
});

test('a node killed mid-render holds its reservations only until their lease ends', { timeout: 180_000 }, async () => {
  const key = await fleet.team('lease', 2);
  const [survivor, other, victim] = fleet.nodes;
  // Two renders on the victim, each held in its browser by an image that does not come.
  const sentAt = Date.now();
  // Settled from the start: they fail while the node is being killed, before anything awaits them.
  const doomed = Promise.allSettled([1, 2].map((n) => call(victim.url, 'POST', '/api/generate', key, { html: `<p>doomed ${n}</p>${held.img(`doomed-${n}`)}` })));
  await held.requested(2);
  const killedAt = Date.now();
  await fleet.kill(victim);
  for (const outcome of await doomed) assert.equal(outcome.status, 'rejected', 'the dead node answered nothing');

  // Its two units still count for the lease: the team is at its limit on every node.
  assert.equal(await usedThisMonth(survivor.url, key), 2);
  const refused = await call(other.url, 'POST', '/api/generate', key, { html: '<p>too soon</p>' });
  assert.equal(refused.status, 422, describeReply(refused));
  assert.equal(refused.json().code, 'LIMIT_EXCEEDED');

  // Then they are given back, with nothing but time passing.
  const waited = await waitFor('the dead node\'s reservations given back', async () => (await usedThisMonth(survivor.url, key)) === 0, LEASE_MS + 30_000);
  const freedAfter = Date.now() - killedAt;
  // Each reservation was taken after sentAt, so its lease cannot have ended before sentAt + LEASE_MS.
  assert.ok(Date.now() - sentAt >= LEASE_MS, `given back ${Date.now() - sentAt} ms after the renders were sent, before the lease of ${LEASE_MS} ms ran out`);
  held.release();
  for (const node of [survivor, other]) {
    const rendered = await call(node.url, 'POST', '/api/generate', key, { html: `<p>after the lease on ${node.port}</p>` });
    assert.equal(rendered.status, 200, describeReply(rendered));
    assert.match(pdfText(rendered.body), /after the lease/);
  }
  const over = await call(survivor.url, 'POST', '/api/generate', key, { html: '<p>one too many</p>' });
  assert.equal(over.status, 422, describeReply(over));
  assert.equal(await usedThisMonth(other.url, key), 2);
  console.log(`# killed node's 2 reservations given back ${freedAfter} ms after the kill (lease ${LEASE_MS} ms; waited ${waited} ms)`);
});
