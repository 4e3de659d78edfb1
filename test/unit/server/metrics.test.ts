/**
 * The pure parts of operating the service: which caller request ids are kept, what a refused
 * request leaves in the log, and the memory of a process tree read from /proc (against a real
 * tree of processes started here).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { ImprintError } from '../../../src/core/errors.js';
import { refusalForLog } from '../../../src/server/http/logger.js';
import { kindOf } from '../../../src/server/metrics/metered-engine.js';
import { treeMemory } from '../../../src/server/metrics/process-tree-memory.js';
import { usableRequestId } from '../../../src/server/http/request-id.js';

test('a caller request id is kept when short and plain, else replaced', () => {
  for (const id of ['abc', 'req-1.2:3', 'a/b+c=d@e_f', '0'.repeat(128), '3f6c1a0e-7d5b-4c8e-9a1b-2c3d4e5f6a7b']) assert.equal(usableRequestId(id), id);
  for (const id of ['', 'two words', 'quote"d', 'new\nline', 'tab\t', 'é', '0'.repeat(129), undefined, ['a', 'b'], 42]) assert.equal(usableRequestId(id), undefined, JSON.stringify(id));
});

test("a refused request's log keeps its message, except one about props (it quotes them)", () => {
  const props = new ImprintError('INVALID_INPUT', 'lines: expected array, got "private"', { details: 'private' });
  assert.doesNotMatch(JSON.stringify(refusalForLog(props, props.message, props.details)), /private/);
  assert.equal(refusalForLog(props, props.message, props.details).code, 'INVALID_INPUT');
  const missing = new ImprintError('NOT_FOUND', 'No template "x" in this team.');
  assert.deepEqual(refusalForLog(missing, missing.message, undefined), { code: 'NOT_FOUND', error: missing.message, details: undefined });
  assert.deepEqual(refusalForLog(new Error('fastify'), 'Invalid body', undefined), { error: 'Invalid body', details: undefined });
});

test('the memory of a process tree: the root and every descendant, none once they exit', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  // A shell with two children of its own: three processes.
  // A group of its own, so the whole tree is killed at the end, not only the shell.
  const root = spawn('sh', ['-c', 'sleep 60 & sleep 60 & wait'], { stdio: 'ignore', detached: true });
  try {
    let memory = await treeMemory([root.pid!]);
    const deadline = Date.now() + 10_000;
    // The shell starts its children after it starts: read until they are there.
    while (memory!.processes < 3 && Date.now() < deadline) memory = await treeMemory([root.pid!]);
    assert.equal(memory!.processes, 3);
    assert.ok(memory!.rssBytes > 3 * 100_000, `${memory!.rssBytes} bytes`);
    const own = await treeMemory([process.pid]);
    assert.ok(own!.processes >= 4, 'this process, the shell and its two children');
  } finally {
    process.kill(-root.pid!, 'SIGKILL');
  }
  await once(root, 'exit');
  assert.deepEqual(await treeMemory([root.pid!]), { rssBytes: 0, processes: 0 });
});

test('a render of generate is of kind url when it loads a page (HTML injected into it or not), else html', () => {
  assert.equal(kindOf({ html: '<p>x</p>' }), 'html');
  assert.equal(kindOf({ url: 'https://example.org/' }), 'url');
  assert.equal(kindOf({ url: 'https://example.org/', html: '<p>x</p>' }), 'url');
});
