/** Webhook signing secrets in PostgreSQL: stored as they are, for the reasons given in ../sqlite/webhook-secrets.ts. */
import { generateWebhookSecret } from '../../webhooks/secret.js';
import { toIso } from '../time.js';
import type { PgContext, PgTeams } from './teams.js';

export function createPgWebhookSecrets(ctx: PgContext, teams: PgTeams) {
  const { pool } = ctx;
  return {
    async rotateWebhookSecret(teamId: number): Promise<string> {
      await teams.requireTeamById(teamId);
      const secret = generateWebhookSecret();
      await pool.query(
        `INSERT INTO webhook_secrets (team_id, secret, created_at) VALUES ($1, $2, $3)
           ON CONFLICT (team_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at`,
        [teamId, secret, toIso(ctx.now())],
      );
      return secret;
    },

    async getWebhookSecret(teamId: number): Promise<string | undefined> {
      const { rows } = await pool.query<{ secret: string }>('SELECT secret FROM webhook_secrets WHERE team_id = $1', [teamId]);
      return rows[0]?.secret;
    },
  };
}
