/**
 * What one run of the CLI holds from its entry point to its exit: the egress proxies its
 * browsers go through, and a browser started ahead of need. Made by the entry point before the
 * program loads and handed down (program, context, embedded backend), so no module keeps this
 * state of its own; closed at the CLI's boundary (main.ts).
 */
import { createCliEgress, type CliEgress } from './cli-egress.js';
import { createLaunchAhead, type LaunchAhead } from './launch-ahead.js';

export interface CliRuntime {
  readonly egress: CliEgress;
  readonly launchAhead: LaunchAhead;
  /** A browser started ahead that no render took, then the proxies its browsers went through. */
  close(): Promise<void>;
}

export function createCliRuntime(): CliRuntime {
  const egress = createCliEgress();
  const launchAhead = createLaunchAhead();
  return {
    egress,
    launchAhead,
    async close() {
      try {
        await launchAhead.drop();
      } finally {
        await egress.close();
      }
    },
  };
}
