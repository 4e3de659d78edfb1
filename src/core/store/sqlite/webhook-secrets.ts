/**
 * Each team's webhook signing secret (the Standard Webhooks `whsec_...`).
 *
 * Unlike an API key, the secret cannot be kept as a hash: the service needs it itself, to
 * sign every delivery. It is stored as it is, not encrypted: a key to encrypt it with would
 * have to sit beside the database on the same machine (or in the same environment every
 * node reads), so it would stop nobody who can read the data folder, and it would add a
 * second secret to lose. What a leaked signing secret allows is bounded: forging webhooks to
 * that team's receivers, not calling the API or reading documents; the remedy is one command
 * (`imprint team webhook-secret <team>` or `POST /api/webhook-secret`), which replaces it.
 */
import { generateWebhookSecret } from '../../webhooks/secret.js';
import type { StoreContext } from './context.js';
import { guardDatabase } from './database.js';
import type { Teams } from './teams.js';
import { toIso } from '../time.js';

export function createWebhookSecrets(ctx: StoreContext, teams: Teams) {
  const { db } = ctx;
  const upsert = db.prepare<[number, string, string]>(
    `INSERT INTO webhook_secrets (team_id, secret, created_at) VALUES (?, ?, ?)
       ON CONFLICT (team_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at`,
  );
  const read = db.prepare<[number], { secret: string }>('SELECT secret FROM webhook_secrets WHERE team_id = ?');

  return {
    rotateWebhookSecret(teamId: number): string {
      teams.requireTeamById(teamId);
      const secret = generateWebhookSecret();
      guardDatabase(db.name, () => upsert.run(teamId, secret, toIso(ctx.now())));
      return secret;
    },

    getWebhookSecret(teamId: number): string | undefined {
      return read.get(teamId)?.secret;
    },
  };
}
