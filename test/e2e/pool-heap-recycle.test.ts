/**
 * A warm template page is replaced when its script heap grows (module state a template keeps),
 * and only then: a page that keeps nothing renders on past the old fixed recycle count. Real
 * Chromium, one pool for the file, concurrency 1 so that every render lands on the same page.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Artifact } from '../../src/core/artifact.js';
import { bundleTemplate } from '../../src/core/bundle/bundle-template.js';
import { createBrowserProvider } from '../../src/core/render/browser-provider.js';
import type { PoolEvent } from '../../src/core/render/pool-events.js';
import { HEAP_CHECK_EVERY } from '../../src/core/render/pool-pages.js';
import type { BrowserPool, TemplateJob } from '../../src/core/render/pool.js';
import { INPUTS } from '../helpers/cli.js';
import { pdfText } from '../helpers/pdf.js';

const fixture = (name: string) => path.join(INPUTS, 'test', 'fixtures', 'pool', name);
/** Two heap checks: the first sets the page's baseline, the second sees the growth. */
const RENDERS = 2 * HEAP_CHECK_EVERY + 5;

describe('template pages replaced by heap growth', { timeout: 240_000 }, () => {
  const events: PoolEvent[] = [];
  let pool: BrowserPool;
  let hoarder: Artifact;
  let card: Artifact;
  const recycles = () => events.filter((e) => e.type === 'page-close' && e.reason === 'recycle').length;
  const job = (artifact: Artifact, props: object): TemplateJob => ({ isolationKey: 'team:1', artifactKey: artifact.sourceName, artifact, props, request: {}, timeoutMs: 30_000 });

  before(async () => {
    [hoarder, card] = await Promise.all([bundleTemplate(fixture('Hoarder.tsx')), bundleTemplate(fixture('Card.tsx'))]).then((built) => built.map((b) => b.artifact));
    pool = createBrowserProvider({
      search: {},
      runningAsRoot: process.getuid?.() === 0,
      // The default heap limit; the count cap far away, so only the heap can replace a page.
      pool: { concurrency: 1, pageRecycleAfter: 10_000 },
      log: (event) => events.push(event),
    });
  });

  after(async () => {
    await pool.close();
  });

  test('a page that keeps nothing is not replaced', async () => {
    for (let i = 1; i <= RENDERS; i++) {
      const { pdf } = await pool.renderTemplate(job(card, { title: `C${i}` }));
      assert.match(pdfText(pdf), new RegExp(`Card C${i}\\b`));
    }
    assert.equal(recycles(), 0, 'the card page was replaced');
  });

  test('a page whose module state grows is replaced, and the next render starts afresh', async () => {
    const kept: number[] = [];
    for (let i = 1; i <= RENDERS; i++) {
      const { pdf } = await pool.renderTemplate(job(hoarder, { label: `H${i}` }));
      const match = /Hoarder H(\d+) kept (\d+)/.exec(pdfText(pdf));
      assert.ok(match, `render ${i} printed: ${pdfText(pdf)}`);
      assert.equal(Number(match[1]), i);
      kept.push(Number(match[2]));
    }
    // Growth of ~8 MiB a render passes the 64 MiB limit between the first check and the second.
    assert.equal(recycles(), 1, `page closes: ${JSON.stringify(events.filter((e) => e.type === 'page-close'))}`);
    assert.deepEqual(kept.slice(0, 2 * HEAP_CHECK_EVERY), Array.from({ length: 2 * HEAP_CHECK_EVERY }, (_, i) => i + 1));
    assert.deepEqual(kept.slice(2 * HEAP_CHECK_EVERY), Array.from({ length: RENDERS - 2 * HEAP_CHECK_EVERY }, (_, i) => i + 1));
  });
});
