/**
 * `imprint login --web` (api.md Part F; RFC 8628's device flow, as `gh auth login --web`): the
 * service makes a one-time code, the person opens the dashboard's page for it, signs in there
 * and approves; meanwhile this polls, and once approved receives a new key of that team.
 * The key travels once, over the poll's answer; the code dies after 10 minutes or one use.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../client/errors.js';
import { createClient } from '../client/client.js';
import { ImprintError } from '../core/errors.js';
import { explainRemoteError } from '../backend/remote-errors.js';

export interface WebLoginCallbacks {
  /** The code and the URL to open, for the person to see (and compare with the page). */
  show(code: string, url: string): void;
  /** Whether to open the URL in this machine's browser (a terminal, not CI). */
  openBrowser: boolean;
}

/** How this machine is named on the approval page: who asks, from where. */
export const machineName = () => `${os.userInfo().username}@${os.hostname()} (${process.platform}, imprint CLI)`;

/** The system's way to open a URL; a failure only means the person opens it by hand. */
function openInBrowser(url: string): void {
  const [command, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {}); // no opener on this machine: the URL is printed anyway
    child.unref();
  } catch {
    // As above: printed is enough.
  }
}

export async function webLogin(apiUrl: string, callbacks: WebLoginCallbacks, signal?: AbortSignal): Promise<{ team: string; keyId: string; key: string }> {
  const client = createClient({ baseUrl: apiUrl });
  try {
    let started;
    try {
      started = await client.startWebLogin(machineName());
    } catch (error) {
      // Without a dashboard there is no such route: the service answers it as any unknown path (401 without a key, else 404).
      if (error instanceof ApiError && (error.status === 404 || error.status === 401)) {
        throw new ImprintError('NOT_FOUND', `The Imprint service at ${apiUrl} has no dashboard to log in through (started with --no-dashboard?). Log in with a key instead: \`imprint login --api-key <key>\`.`, { cause: error });
      }
      throw explainRemoteError(error, apiUrl);
    }
    callbacks.show(started.code, started.verificationUrl);
    if (callbacks.openBrowser) openInBrowser(started.verificationUrl);
    const deadline = new Date(started.expiresAt).getTime();
    const intervalMs = Math.max(1, started.interval) * 1000;
    for (;;) {
      await sleep(intervalMs, undefined, { signal });
      const answer = await client.pollWebLogin(started.pollToken).catch((error: unknown) => {
        throw explainRemoteError(error, apiUrl);
      });
      if (answer.status === 'approved') return { team: answer.team, keyId: answer.keyId, key: answer.key };
      if (answer.status === 'expired' || Date.now() > deadline + intervalMs) {
        throw new ImprintError('UNAUTHORIZED', `The login code ${started.code} expired before it was approved. Run \`imprint login --web\` again and approve it within 10 minutes.`);
      }
    }
  } finally {
    await client.close();
  }
}
