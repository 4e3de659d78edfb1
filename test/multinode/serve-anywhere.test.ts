/**
 * Any node serves anything: two `imprint serve` nodes that share only PostgreSQL and an S3
 * bucket (each has a data folder of its own). A
 * template published through one renders on the other, a download URL issued by one downloads
 * through the other, and expired files are purged once between them, not once per node.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, startFleet, waitFor, type Fleet } from '../helpers/fleet.js';
import { pdfInfo, pdfText } from '../helpers/pdf.js';
import { describeReply, fixtureArtifact } from '../contract/helpers/service.js';

const PURGE_INTERVAL_MS = 300;
let fleet: Fleet;

before(async () => {
  // Info: each purge pass that removed something says how many, which the purge test adds up.
  fleet = await startFleet({ nodes: 2, args: ['--purge-interval', `${PURGE_INTERVAL_MS}ms`, '--log-level', 'info'] });
});

after(async () => {
  await fleet?.close();
});

/** What each node says it purged since the given offsets of its output. */
const removedByNodes = (offsets: number[]) =>
  fleet.nodes.map((node, i) => logLines(node.output().slice(offsets[i])).reduce((sum, line) => sum + (line.msg === 'purged expired download files' ? line.removed! : 0), 0));

/** The log lines of a node, parsed (JSON lines on stdout; the start-up notes are plain text). */
const logLines = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; removed?: number });

test('published through node A, rendered on node B; a URL issued by A downloads through B', { timeout: 120_000 }, async () => {
  const [a, b] = fleet.nodes;
  const key = await fleet.team('anywhere', 100);
  const artifact = await fixtureArtifact('Greeting.tsx');
  const published = await call(a.url, 'POST', '/api/templates', key, { id: 'greeting', artifact });
  assert.equal(published.status, 201, describeReply(published));

  const listed = await call(b.url, 'GET', '/api/templates', key);
  assert.deepEqual(
    listed.json().templates.map((t: { id: string; latestVersion: number }) => [t.id, t.latestVersion]),
    [['greeting', 1]],
  );
  const onB = await call(b.url, 'POST', '/api/documents/greeting', key, { props: { name: 'Ada' } });
  assert.equal(onB.status, 200, describeReply(onB));
  assert.match(pdfText(onB.body), /Hello Ada/);

  // A second version published through B renders on A.
  const second = await call(b.url, 'POST', '/api/templates', key, { id: 'greeting', artifact });
  assert.equal(second.json().version, 2, describeReply(second));
  const onA = await call(a.url, 'POST', '/api/documents/greeting', key, { props: { name: 'Grace' }, version: 1, format: 'json' });
  assert.equal(onA.status, 200, describeReply(onA));
  const issued = new URL(onA.json().url);
  assert.equal(issued.origin, a.url, 'issued under A\'s address (no --public-url)');
  const throughB = await call(b.url, 'GET', issued.pathname);
  assert.equal(throughB.status, 200, describeReply(throughB));
  assert.equal(throughB.headers['content-type'], 'application/pdf');
  assert.equal(pdfInfo(throughB.body).pages, 1);
  assert.match(pdfText(throughB.body), /Hello Grace/);
});

test('expired files are purged once across nodes: each removed by exactly one node, no node fails', { timeout: 120_000 }, async () => {
  const key = await fleet.team('purged', 100);
  const team = (await fleet.operator.getTeam('purged'))!;
  assert.ok(key);
  const pdf = Buffer.from('%PDF-1.7 stand-in: the purge does not read it');
  const before = await fleet.storedFiles();
  const logsBefore = fleet.nodes.map((node) => node.output().length);

  // 40 files that expire at once; both nodes purge every PURGE_INTERVAL_MS.
  const COUNT = 40;
  const issued = await Promise.all(Array.from({ length: COUNT }, () => fleet.operator.issueFile(team.id, pdf, 1)));
  await waitFor('every expired file removed from the bucket', async () => (await fleet.storedFiles()).length === before.length, 30_000);

  // Wait for the pass that removed the last file to have logged, then add up what each node says it removed.
  const removedBy = () => removedByNodes(logsBefore);
  await waitFor(`the nodes' purge logs add up to ${COUNT}`, async () => removedBy().reduce((a, b) => a + b) >= COUNT, 10_000);
  const perNode = removedBy();
  assert.equal(perNode.reduce((a, b) => a + b), COUNT, `each file removed once: ${perNode.join(' + ')}`);
  for (const [i, node] of fleet.nodes.entries()) {
    const failures = logLines(node.output().slice(logsBefore[i])).filter((line) => line.level >= 50);
    assert.deepEqual(failures, [], `node ${i} logged no error`);
  }
  for (const file of issued) assert.equal((await call(fleet.nodes[0].url, 'GET', `/api/files/${file.token}`)).status, 404);
  assert.deepEqual(await fleet.storedFiles(), before, 'nothing else removed, nothing left behind');
  console.log(`# ${COUNT} expired files purged by 2 nodes: ${perNode.join(' + ')}`);
});

test('purges racing on several connections at once each take a disjoint set of rows', { timeout: 60_000 }, async () => {
  // The nodes' timers rarely fire at the same instant: this races 8 purges, on 2 pools of
  // their own, against 200 expired files. DELETE ... RETURNING hands each row to one of them.
  const stores = await Promise.all([1, 2].map(() => fleet.openStore()));
  try {
    const team = (await fleet.operator.getTeam('purged'))!;
    const COUNT = 200;
    const offsets = fleet.nodes.map((node) => node.output().length);
    await Promise.all(Array.from({ length: COUNT }, (_, i) => stores[i % 2].issueFile(team.id, Buffer.from(`%PDF-1.7 ${i}`), 1)));
    const removed = await Promise.all(Array.from({ length: 8 }, (_, i) => stores[i % 2].purgeExpiredFiles()));
    // The nodes purge meanwhile too: what each of the ten purgers took adds up to the count exactly.
    const total = () => removed.reduce((a, b) => a + b) + removedByNodes(offsets).reduce((a, b) => a + b);
    await waitFor(`the purgers' counts add up to ${COUNT}`, async () => total() >= COUNT, 10_000);
    assert.equal(total(), COUNT, `racing purges ${removed.join(' + ')}, nodes ${removedByNodes(offsets).join(' + ')}`);
    assert.equal(await stores[0].purgeExpiredFiles(), 0);
    console.log(`# 200 expired files, 8 racing purges: ${removed.join(' + ')}; the nodes: ${removedByNodes(offsets).join(' + ')}`);
  } finally {
    await Promise.all(stores.map((store) => store.close()));
  }
});
