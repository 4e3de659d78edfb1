/**
 * The route choice (src/cli/renderer/client/route.ts): its order and fall-through, with the
 * routes themselves stood in for (what each does is tested through the real CLI and a real
 * renderer in test/e2e/renderer*.test.ts). A pure-logic unit test: which route is asked, in
 * which order, and what answers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entryRoute, renderRoute, type EntryFiles } from '../../../../../src/cli/renderer/client/route.js';
import type { PendingRenderer } from '../../../../../src/cli/renderer/client/use-renderer.js';

type NailAnswer = Awaited<ReturnType<ReturnType<EntryFiles['nail']>['nailRender']>>;

/** Files whose fast paths answer as told, recording what was loaded and called, in order. */
function files(nail: NailAnswer | 'not built', thin: boolean | 'not built') {
  const calls: string[] = [];
  const missing = (code: string) => Object.assign(new Error('not built'), { code });
  const given: EntryFiles = {
    cliEntry: '/pkg/dist/cli.js',
    nail: () => {
      calls.push('load nail');
      if (nail === 'not built') throw missing('MODULE_NOT_FOUND');
      return {
        nailRender: async (_args: readonly string[], cliEntry: string) => {
          calls.push(`nail ${cliEntry}`);
          return nail;
        },
      } as unknown as ReturnType<EntryFiles['nail']>;
    },
    thin: async () => {
      calls.push('load thin');
      if (thin === 'not built') throw missing('ERR_MODULE_NOT_FOUND');
      return {
        fastRender: async () => {
          calls.push('thin');
          return thin;
        },
        finishNailed: async () => {
          calls.push('finish nailed');
        },
      } as unknown as Awaited<ReturnType<EntryFiles['thin']>>;
    },
  };
  return { given, calls };
}

test('a render is offered to the nail route first; answered there, nothing else loads', async () => {
  const { given, calls } = files(true, true);
  assert.deepEqual(await entryRoute(['render', 'invoice'], given), { route: 'nail' });
  assert.deepEqual(calls, ['load nail', 'nail /pkg/dist/cli.js']);
});

test('a nail call the renderer ran with something left to show is finished by the thin path, not sent again', async () => {
  const { given, calls } = files({ type: 'nailed', usedPreviewProps: true, line: 'x.pdf' }, true);
  assert.deepEqual(await entryRoute(['render', 'invoice'], given), { route: 'nail' });
  assert.deepEqual(calls, ['load nail', 'nail /pkg/dist/cli.js', 'load thin', 'finish nailed']);
});

test('declined by the nail route: the thin route; declined there too: the full CLI', async () => {
  const thin = files(false, true);
  assert.deepEqual(await entryRoute(['render', 'invoice'], thin.given), { route: 'thin' });
  assert.deepEqual(thin.calls, ['load nail', 'nail /pkg/dist/cli.js', 'load thin', 'thin']);
  const full = files(false, false);
  assert.deepEqual(await entryRoute(['render', 'invoice'], full.given), { route: 'full' });
  assert.deepEqual(full.calls, ['load nail', 'nail /pkg/dist/cli.js', 'load thin', 'thin']);
});

test('generate has no nail route; other commands load no fast path at all', async () => {
  const generate = files(true, true);
  assert.deepEqual(await entryRoute(['generate', '--html', 'x.html'], generate.given), { route: 'thin' });
  assert.deepEqual(generate.calls, ['load thin', 'thin']);
  for (const args of [['--version'], ['templates'], [], ['serve', 'render']]) {
    const other = files(true, true);
    assert.deepEqual(await entryRoute(args, other.given), { route: 'full' });
    assert.deepEqual(other.calls, []);
  }
});

test('a build without a fast path is only slower: the next route answers', async () => {
  const noNail = files('not built', true);
  assert.deepEqual(await entryRoute(['render', 'invoice'], noNail.given), { route: 'thin' });
  const neither = files('not built', 'not built');
  assert.deepEqual(await entryRoute(['render', 'invoice'], neither.given), { route: 'full' });
});

test('the render command: the warm renderer for a template file or a published template in embedded mode, when it can be reached', () => {
  const pending: PendingRenderer = { connection: async () => undefined };
  let reached = 0;
  const reach = () => {
    reached++;
    return pending;
  };
  // A template file is always rendered on this machine (embedded), so it goes there too.
  assert.deepEqual(renderRoute({ embedded: true }, reach), { route: 'renderer', renderer: pending });
  assert.equal(reached, 1);
  // Remote mode renders on the service: the renderer is not even reached.
  assert.deepEqual(renderRoute({ embedded: false }, reach), { route: 'in-process' });
  assert.equal(reached, 1);
  // Off (--no-renderer, IMPRINT_RENDERER=off) or a runtime folder not safe: reachRenderer answers undefined.
  assert.deepEqual(renderRoute({ embedded: true }, () => undefined), { route: 'in-process' });
});
