import type { DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { endGrant } from "./adapter";

/**
 * The agents an account holder connected (one per consent, i.e. per OAuth grant), as
 * /account/agents lists them, and revoking one. A connection is live while it is not revoked and
 * its grant exists and has not expired (a grant unused for 90 days ends).
 */
export interface AgentConnection {
  grant_id: string;
  client_id: string;
  client_name: string;
  redirect_host: string;
  /** The scopes the holder granted (ticked) on the consent screen. */
  scopes: string[];
  created_at: Date;
  first_used_at: Date | null;
  last_used_at: Date | null;
}

export interface NewConnection {
  grantId: string;
  userId: string;
  clientId: string;
  clientName: string;
  redirectHost: string;
  scopes: string[];
}

/** The holder's live connections, newest first. */
export async function listConnections(client: DbClient, userId: string): Promise<AgentConnection[]> {
  return client.$queryRaw<AgentConnection[]>`
    SELECT c.grant_id, c.client_id, c.client_name, c.redirect_host, c.scopes, c.created_at, c.first_used_at, c.last_used_at
      FROM agent_connections c
     WHERE c.user_id = ${userId}::uuid AND c.revoked_at IS NULL
       AND EXISTS (SELECT 1 FROM oauth_records g
                    WHERE g.model = 'Grant' AND g.grant_id = c.grant_id AND (g.expires_at IS NULL OR g.expires_at > now()))
     ORDER BY c.created_at DESC, c.grant_id`;
}

/** Records the holder's consent to a client (the grant it made), as the resource side checks it. */
export async function recordConnection(client: DbClient, input: NewConnection): Promise<void> {
  await client.$executeRaw`
    INSERT INTO agent_connections (grant_id, user_id, client_id, client_name, redirect_host, scopes)
    VALUES (${input.grantId}, ${input.userId}::uuid, ${input.clientId}, ${input.clientName}, ${input.redirectHost}, ${input.scopes})
    ON CONFLICT (grant_id) DO UPDATE SET scopes = EXCLUDED.scopes, client_name = EXCLUDED.client_name, redirect_host = EXCLUDED.redirect_host
     WHERE agent_connections.user_id = EXCLUDED.user_id AND agent_connections.revoked_at IS NULL`;
}

/**
 * "Revoke" on /account/agents: only the holder's own live connection (else 404
 * `agent_connection_not_found`). The connection is marked revoked first, which the resource side
 * checks on every request, then the grant and every code and token under it are destroyed: the
 * very next request with any of its tokens is 401.
 */
export async function revokeConnection(client: DbClient, userId: string, grantId: string): Promise<void> {
  const rows = await client.$queryRaw<Array<{ grant_id: string }>>`
    SELECT grant_id FROM agent_connections WHERE grant_id = ${grantId} AND user_id = ${userId}::uuid AND revoked_at IS NULL`;
  if (rows.length === 0) throw new AppError("agent_connection_not_found", "You have no connected agent with that id.");
  await endGrant(client, grantId);
}
