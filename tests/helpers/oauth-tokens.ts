/**
 * Access tokens for tests of the buyer API and the agent MCP server, written the way the
 * authorization server stores them (lib/oauth/adapter.ts: table `oauth_records`, ids hashed,
 * payloads without their id) together with the grant and the holder's connection row, so that a
 * test needs no browser to act as an agent. The OAuth flow itself is tested end to end elsewhere
 * (tests/integration/oauth-*.test.ts and the Playwright suite).
 */
import { createHash, randomBytes } from "node:crypto";
import type pg from "pg";

export const BUYER_API_PATH = "/api/v1/buyer";
export const AGENT_MCP_PATH = "/api/agent/mcp";
export const UCP_PATH = "/api/ucp";

export interface MintInput {
  userId: string;
  scopes: string[];
  /** Which resource the token is for (its audience). */
  resource: "buyer_api" | "agent_mcp" | "ucp";
  /** The app's base URL (the audience is `${baseUrl}${path}`). */
  baseUrl: string;
  clientId?: string;
  clientName?: string;
  /** Seconds until the access token expires (negative: already expired). */
  expiresIn?: number;
  /** Reuse a grant (several tokens of one connection). */
  grantId?: string;
}

export interface MintedToken {
  token: string;
  grantId: string;
  clientId: string;
}

const hash = (id: string) => createHash("sha256").update(id, "utf8").digest();
const epoch = () => Math.floor(Date.now() / 1000);

export async function mintAccessToken(pool: pg.Pool, input: MintInput): Promise<MintedToken> {
  const clientId = input.clientId ?? `test-agent-${randomBytes(6).toString("hex")}`;
  const grantId = input.grantId ?? randomBytes(16).toString("base64url");
  const token = randomBytes(32).toString("base64url");
  const audience = `${input.baseUrl}${{ buyer_api: BUYER_API_PATH, agent_mcp: AGENT_MCP_PATH, ucp: UCP_PATH }[input.resource]}`;
  const scope = input.scopes.join(" ");
  const expiresIn = input.expiresIn ?? 900;
  const now = epoch();
  if (!input.grantId) {
    const grant = { iat: now, exp: now + 90 * 86400, kind: "Grant", accountId: input.userId, clientId, resources: { [audience]: scope } };
    await pool.query(
      `INSERT INTO oauth_records (model, id_hash, payload, grant_id, expires_at) VALUES ('Grant', $1, $2, $3, now() + interval '90 days')`,
      [hash(grantId), JSON.stringify(grant), grantId],
    );
    await pool.query(
      `INSERT INTO agent_connections (grant_id, user_id, client_id, client_name, redirect_host, scopes) VALUES ($1, $2, $3, $4, 'agent.test', $5)`,
      [grantId, input.userId, clientId, input.clientName ?? "Test agent", input.scopes],
    );
  }
  const payload = { iat: now, exp: now + expiresIn, kind: "AccessToken", accountId: input.userId, clientId, grantId, scope, aud: audience, gty: "authorization_code" };
  await pool.query(
    `INSERT INTO oauth_records (model, id_hash, payload, grant_id, expires_at) VALUES ('AccessToken', $1, $2, $3, now() + make_interval(secs => $4))`,
    [hash(token), JSON.stringify(payload), grantId, expiresIn],
  );
  return { token, grantId, clientId };
}

/** What "Revoke" on /account/agents does to the records (the grant and every token under it). */
export async function revokeGrantRecords(pool: pg.Pool, grantId: string): Promise<void> {
  await pool.query(`DELETE FROM oauth_records WHERE grant_id = $1`, [grantId]);
}
