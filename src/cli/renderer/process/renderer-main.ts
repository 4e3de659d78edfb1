/**
 * The renderer process's start: its settings and key come as JSON in its environment from
 * the CLI that started it (never in argv, which every user can read in `ps`). It takes the
 * lock first (a second renderer for the same socket leaves at once, having started nothing),
 * then starts Chromium, so the browser boots while the engine's modules load, as the CLI's own
 * entry point does (launch-ahead.ts).
 */
import { findBrowser } from '../../../core/render/find-browser.js';
import { createLocalEgress } from '../../../backend/local-egress.js';
import { createLaunchAhead } from '../../launch-ahead.js';
import { announce, BUSY_LINE } from '../renderer-announce.js';
import { takeLock } from '../renderer-lock.js';
import type { RendererSpec } from '../renderer-target.js';
import { RENDERER_SPEC_ENV } from '../renderer-settings.js';

export async function runRendererFromEnv(): Promise<void> {
  const specJson = process.env[RENDERER_SPEC_ENV];
  // Not passed on to anything this process starts (Chromium): the key is for the handshake only.
  delete process.env[RENDERER_SPEC_ENV];
  if (!specJson) throw new Error('The renderer is started by the CLI itself (imprint renderer start), not by hand.');
  const spec = JSON.parse(specJson) as RendererSpec;
  if (!takeLock(spec.paths.lock)) {
    announce(BUSY_LINE);
    return;
  }
  const egress = createLocalEgress();
  const launchAhead = createLaunchAhead();
  const { browser } = spec.settings;
  // No browser found: the first render reports it, with how to install one.
  void findBrowser(browser.search).then(
    (executablePath) => launchAhead.start({ executablePath, runningAsRoot: browser.runningAsRoot, env: browser.env, egressProxyPort: egress.templatePort }),
    () => undefined,
  );
  const { runRenderer } = await import('./renderer-process.js');
  await runRenderer(spec, { egress, launchAhead });
}
