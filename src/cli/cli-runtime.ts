/**
 * What one run of the CLI holds from its entry point to its exit: the egress proxies its
 * browsers go through, and a browser started ahead of need. Made by the entry point before the
 * program loads and handed down (program, context, embedded backend), so no module keeps this
 * state of its own; closed at the CLI's boundary (main.ts).
 */
import fs from 'node:fs';
import { createLocalEgress, type LocalEgress } from '../backend/local-egress.js';
import { createLaunchAhead, type LaunchAhead } from './launch-ahead.js';
import type { RendererAhead } from './renderer/client/renderer-ahead.js';

export interface CliRuntime {
  readonly egress: LocalEgress;
  readonly launchAhead: LaunchAhead;
  /** Tells two builds of one version apart (the entry file's mtime): a warm renderer of another build is replaced. */
  readonly build: string;
  /** The warm renderer, reached from the entry point while the program loads (renderer/client/renderer-ahead.ts). */
  rendererAhead?: RendererAhead;
  /** A browser started ahead that no render took, then the proxies its browsers went through. */
  close(): Promise<void>;
}

/** `entryFile`: the CLI's entry module (dist/cli.js), rewritten by every build. */
export function createCliRuntime(entryFile?: string): CliRuntime {
  const egress = createLocalEgress();
  const launchAhead = createLaunchAhead();
  return {
    egress,
    launchAhead,
    build: entryFile ? String(fs.statSync(entryFile, { throwIfNoEntry: false })?.mtimeMs ?? '') : '',
    async close() {
      try {
        await launchAhead.drop();
      } finally {
        await egress.close();
      }
    },
  };
}
