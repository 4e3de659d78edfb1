/**
 * The pool's openAhead (the service's setting) against a real Chromium: a template rendered
 * again gets its other page opened ahead, so two renders that then come at once open none;
 * never more pages than the concurrency, and the pages opened ahead print each render's own
 * props. A pool without the setting opens pages only when a render needs one.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Artifact } from '../../src/core/artifact.js';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { createBrowserProvider } from '../../src/core/render/browser-provider.js';
import type { PoolEvent } from '../../src/core/render/pool-events.js';
import type { BrowserPool, TemplateJob } from '../../src/core/render/pool.js';
import { INPUTS } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';

type PageOpen = Extract<PoolEvent, { type: 'page-open' }>;
const fixture = (name: string) => path.join(INPUTS, 'test', 'fixtures', 'pool', name);

/** A pool of two pages whose page openings are recorded, and a way to wait for the next one. */
function recordingPool(openAhead: boolean) {
  const opens: PageOpen[] = [];
  const failures: PoolEvent[] = [];
  let waiter: { until: (open: PageOpen) => boolean; resolve: () => void } | undefined;
  const pool: BrowserPool = createBrowserProvider({
    search: {},
    runningAsRoot: process.getuid?.() === 0,
    pool: { concurrency: 2, openAhead },
    log: (event) => {
      if (event.type === 'cleanup-failed') failures.push(event);
      if (event.type !== 'page-open') return;
      opens.push(event);
      if (waiter?.until(event)) waiter.resolve();
    },
  });
  /** Resolves when a page opened ahead is recorded (at once if one already was); fails after 30 s. */
  const aheadOpened = (count: number) =>
    new Promise<void>((resolve, reject) => {
      const done = () => opens.filter((open) => open.ahead).length >= count;
      if (done()) return resolve();
      const timer = setTimeout(() => reject(new Error(`no page was opened ahead within 30 s; openings: ${JSON.stringify(opens)}`)), 30_000);
      waiter = { until: done, resolve: () => (clearTimeout(timer), resolve()) };
    });
  return { pool, opens, failures, aheadOpened };
}

describe('pool openAhead', () => {
  let card: Artifact;
  const job = (props: object, isolationKey = 'team:1'): TemplateJob => ({ isolationKey, artifactKey: 'card', artifact: card, props, request: {}, timeoutMs: 20_000 });

  before(async () => {
    card = (await bundleTemplate(fixture('Card.tsx'))).artifact;
  });

  describe('on (the service)', () => {
    const recording = recordingPool(true);
    after(() => recording.pool.close());

    test('a template rendered again gets its second page ahead; two renders at once then open none and print their own props', async () => {
      const { pool, opens, failures, aheadOpened } = recording;
      assert.match(pdfText((await pool.renderTemplate(job({ title: 'One' }))).pdf), /Card One/);
      assert.equal(opens.length, 1);
      assert.ok(!opens[0].ahead, 'the first page is opened by the render that needs it');
      // The second render finds the page warm: that starts the opening ahead.
      assert.match(pdfText((await pool.renderTemplate(job({ title: 'Two' }))).pdf), /Card Two/);
      await aheadOpened(1);
      assert.equal(opens.length, 2);

      const [left, right] = await Promise.all([pool.renderTemplate(job({ title: 'Left' })), pool.renderTemplate(job({ title: 'Right' }))]);
      assert.equal(opens.length, 2, 'both renders found a loaded page');
      assert.match(pdfText(left.pdf), /Card Left/);
      assert.doesNotMatch(pdfText(left.pdf), /Right|One|Two/);
      assert.match(pdfText(right.pdf), /Card Right/);
      assert.doesNotMatch(pdfText(right.pdf), /Left|One|Two/);
      assert.deepEqual(failures, []);
    });

    test('never more pages than the concurrency: more renders open nothing ahead; another team gets its own', async () => {
      const { pool, opens, aheadOpened } = recording;
      for (const title of ['Three', 'Four', 'Five']) assert.match(pdfText((await pool.renderTemplate(job({ title }))).pdf), new RegExp(`Card ${title}`));
      assert.equal(opens.length, 2, 'the template already has a page per slot');

      // Another isolation key never shares the first team's pages: its own, then its own ahead.
      assert.match(pdfText((await pool.renderTemplate(job({ title: 'Other1' }, 'team:2'))).pdf), /Card Other1/);
      assert.match(pdfText((await pool.renderTemplate(job({ title: 'Other2' }, 'team:2'))).pdf), /Card Other2/);
      await aheadOpened(2);
      assert.deepEqual(
        opens.map((open) => [open.isolationKey, Boolean(open.ahead)]),
        [
          ['team:1', false],
          ['team:1', true],
          ['team:2', false],
          ['team:2', true],
        ],
      );
      assert.equal(pool.stats().warmPages, 4, "both teams' pages idle and warm");
    });
  });

  describe('off (the default)', () => {
    const recording = recordingPool(false);
    after(() => recording.pool.close());

    test('renders one after another keep to one page', async () => {
      const { pool, opens } = recording;
      for (const title of ['A', 'B', 'C']) await pool.renderTemplate(job({ title }));
      assert.equal(opens.length, 1);
      assert.equal(pool.stats().warmPages, 1);
    });
  });
});
