/**
 * One checkout's render code, loaded from its sources (tsx compiles them): its bundler and page
 * runtime, its template page, its finishing and its render marks. A bench that takes `--other`
 * (a `git worktree` of main, with its node_modules) loads both checkouts' code into one process,
 * so a change meets what it replaces on the same browser in the same minutes.
 */
import path from 'node:path';

export type CheckoutCode = Awaited<ReturnType<typeof checkoutCode>>;

export async function checkoutCode(root: string) {
  const module = (file: string) => import(path.join(path.resolve(root), file));
  return {
    bundleTemplate: (await module('src/core/bundle/bundle-template.ts')).bundleTemplate as typeof import('../../src/core/bundle/bundle-template.js').bundleTemplate,
    ...((await module('src/core/render/template-page.ts')) as typeof import('../../src/core/render/template-page.js')),
    finishPrint: (await module('src/core/finish-print.ts')).finishPrint as typeof import('../../src/core/finish-print.js').finishPrint,
    timeRender: (await module('src/core/render/render-timing.ts')).timeRender as typeof import('../../src/core/render/render-timing.js').timeRender,
  };
}
