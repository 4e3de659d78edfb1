/**
 * `imprint login`: stores the API URL and key after checking them against the service. On a
 * terminal it asks for what --api-url/--api-key (or IMPRINT_API_URL/IMPRINT_API_KEY) did not
 * give, the key as a password; elsewhere (CI) nothing prompts and both must be given.
 * `--web` gets the key through the service's dashboard instead (web-login.ts): the person
 * approves this machine in the browser, and the key is never typed or pasted.
 */
import type { Command } from 'commander';
import { ImprintError } from '../../core/errors.js';
import { createRemoteBackend } from '../../backend/remote.js';
import type { CliContext } from '../context.js';
import { normalizeApiUrl } from '../config/mode.js';
import { askApiKey, askApiUrl, canPrompt } from '../ui/prompts.js';
import { done, interactive, note } from '../ui/status.js';
import { webLogin } from '../web-login.js';

async function obtain(given: string | undefined, ask: () => Promise<string>, what: string): Promise<string> {
  if (given) return given;
  if (!canPrompt()) {
    throw new ImprintError('USAGE', `No ${what} given and no terminal to ask on: pass --api-url and --api-key (env IMPRINT_API_URL, IMPRINT_API_KEY).`);
  }
  return ask();
}

export function registerLogin(program: Command, context: () => CliContext) {
  program
    .command('login')
    .description('store the URL and key of an Imprint API; later commands then run in remote mode')
    .option('--web', "get a new key by approving this machine in the service's dashboard (opens the browser; the code expires in 10 minutes)")
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ imprint login',
        '  $ imprint login --web --api-url https://pdf.example.org   # approve in the browser, no key to paste',
        '  $ imprint login --api-url https://pdf.example.org --api-key "$IMPRINT_API_KEY"   # CI: no prompts',
      ].join('\n'),
    )
    .action(async (flags: { web?: boolean }) => {
      const ctx = context();
      const given = ctx.givenConnection();
      const stored = ctx.loginStore().read();
      const apiUrl = normalizeApiUrl(
        await obtain(given.apiUrl ?? (flags.web ? stored.apiUrl : undefined), () => askApiUrl(stored.apiUrl), 'API URL'),
      );
      if (flags.web && given.apiKey) throw new ImprintError('USAGE', '--web gets a new key from the dashboard: leave out --api-key (and IMPRINT_API_KEY), or log in with the key without --web.');
      const apiKey = flags.web
        ? (
            await webLogin(apiUrl, {
              openBrowser: interactive(),
              show: (code, url) => {
                note(`Open ${url} to approve this machine (sign in with a key of your team if asked).`);
                note(`Check that the page shows the code ${code}. Waiting for the approval...`);
              },
            })
          ).key
        : (await obtain(given.apiKey, askApiKey, 'API key')).trim();
      // Checked before it is stored: a typo should fail now, not at the next render.
      const backend = createRemoteBackend({ apiUrl, apiKey });
      try {
        const me = await backend.whoami();
        await ctx.loginStore().save({ apiUrl, apiKey });
        done(`Logged in to ${apiUrl} as team ${me.team.name}. Commands now run in remote mode (--embedded to run locally).`);
      } finally {
        await backend.close();
      }
    });
}
