/**
 * `optimizeImages` around one print (print-pdf.ts): the page's images swapped for smaller ones
 * (in-page.ts), the print, then the page as it was and the new images' memory released (why:
 * in-page.ts). Undone even when the print fails.
 */
import type { Page } from 'puppeteer-core';
import type { PageSetup } from '../../page-size.js';
import { IMAGES_GLOBAL, OPTIMIZE_IN_PAGE, type ImagesReport } from './in-page.js';
import type { OptimizeImages } from './option.js';

/** CSS pixels per point. */
const PX_PER_PT = 96 / 72;

const RESTORE = `() => window[${JSON.stringify(IMAGES_GLOBAL)}]?.restore()`;

/** Swaps the images of `page` for `setup`'s paper, runs `print`, restores them; the report goes to `onReport` (the bench). */
export async function withOptimizedImages<T>(page: Page, options: OptimizeImages, setup: PageSetup, print: () => Promise<T>, onReport?: (report: ImagesReport) => void): Promise<T> {
  const paperWidthPx = setup.size.widthPt * PX_PER_PT;
  let printed: T;
  try {
    const report = (await page.evaluate(`(${OPTIMIZE_IN_PAGE})(${JSON.stringify({ ...options, paperWidthPx })})`)) as ImagesReport;
    onReport?.(report);
    printed = await print();
  } catch (error) {
    // The print's (or the swap's) error is the one to report; a page that cannot be restored is dropped by the pool with it.
    await page.evaluate(RESTORE).catch((restoreError: unknown) => {
      (error as Error & { restoreError?: unknown }).restoreError = restoreError;
    });
    throw error;
  }
  await page.evaluate(RESTORE);
  return printed;
}
