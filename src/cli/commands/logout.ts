/** `imprint logout`: forgets the stored API URL and key; commands run embedded again. */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { done, note } from '../ui/status.js';

export function registerLogout(program: Command, context: () => CliContext) {
  program
    .command('logout')
    .description('forget the stored API URL and key')
    .action(async () => {
      const store = context().loginStore();
      const { apiUrl } = store.read();
      if (!apiUrl) {
        note('Not logged in: nothing to forget.');
        return;
      }
      await store.clear();
      done(`Logged out of ${apiUrl}. Commands now run in embedded mode unless given --api-url/--api-key.`);
    });
}
