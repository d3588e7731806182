import { createHash } from "node:crypto";
import { errors, type Adapter, type AdapterPayload } from "oidc-provider";
import { Prisma, type DbClient } from "@/lib/db";

/** What the table keeps of an id: its SHA-256, so that a read of the table yields no usable token. */
export function hashOAuthId(id: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash("sha256").update(id, "utf8").digest());
}

/** Models whose records redeem once: a second redemption of a code or refresh token must fail. */
const SINGLE_USE = new Set(["AuthorizationCode", "RefreshToken", "DeviceCode", "BackchannelAuthenticationRequest", "PreAuthorizedCode"]);

/**
 * oidc-provider's storage in PostgreSQL (table `oauth_records`, one row per model and id). Ids are
 * stored only as SHA-256 hashes and every payload is stored without its own id (`jti`), which find
 * puts back from the id it was asked for. `consume` is one conditional update, so a code or
 * refresh token is redeemed by exactly one of two racing requests; the other gets `invalid_grant`.
 */
export class PrismaOAuthAdapter implements Adapter {
  constructor(
    private readonly client: DbClient,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const stored: AdapterPayload = { ...payload };
    delete stored.jti;
    const expiresAt = typeof expiresIn === "number" && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : null;
    const grantId = this.model === "Grant" ? id : (payload.grantId ?? null);
    const row = {
      payload: stored as Prisma.InputJsonObject,
      grantId,
      uid: payload.uid ?? null,
      userCode: payload.userCode ?? null,
      expiresAt,
      consumedAt: payload.consumed ? new Date(Number(payload.consumed) * 1000) : null,
    };
    const key = { model: this.model, idHash: hashOAuthId(id) };
    await this.client.oAuthRecord.upsert({ where: { model_idHash: key }, create: { ...key, ...row }, update: row });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (typeof id !== "string" || id.length === 0 || id.length > 2048) return undefined;
    const row = await this.client.oAuthRecord.findUnique({ where: { model_idHash: { model: this.model, idHash: hashOAuthId(id) } } });
    return this.payloadOf(row, id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await this.client.oAuthRecord.findFirst({ where: { model: this.model, uid } });
    if (!row) return undefined;
    // The session's own id is known only to its cookie; its payload needs no `jti` to be used by uid.
    return this.payloadOf(row, undefined);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const row = await this.client.oAuthRecord.findFirst({ where: { model: this.model, userCode } });
    return this.payloadOf(row, undefined);
  }

  async consume(id: string): Promise<void> {
    const consumed = await this.client.$executeRaw`
      UPDATE oauth_records
         SET consumed_at = now(),
             payload = payload || jsonb_build_object('consumed', floor(extract(epoch FROM now()))::bigint)
       WHERE model = ${this.model} AND id_hash = ${hashOAuthId(id)} AND consumed_at IS NULL`;
    if (consumed === 0 && SINGLE_USE.has(this.model)) {
      // Lost a race for a code or refresh token: the other request redeemed it first. As with a
      // replay oidc-provider detects itself, the whole grant ends (RFC 9700 section 4.14.2).
      const row = await this.client.oAuthRecord.findUnique({ where: { model_idHash: { model: this.model, idHash: hashOAuthId(id) } }, select: { grantId: true } });
      if (row?.grantId) await endGrant(this.client, row.grantId);
      throw new errors.InvalidGrant(`${this.model === "RefreshToken" ? "refresh token" : "grant"} already used`);
    }
  }

  async destroy(id: string): Promise<void> {
    await this.client.oAuthRecord.deleteMany({ where: { model: this.model, idHash: hashOAuthId(id) } });
    // oidc-provider destroys a Grant when it revokes it (refresh-token or code replay, RFC 7009
    // revocation of a refresh token): the holder's connection ends with it.
    if (this.model === "Grant") await markConnectionRevoked(this.client, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.client.oAuthRecord.deleteMany({ where: { model: this.model, grantId } });
  }

  private payloadOf(row: { payload: Prisma.JsonValue; expiresAt: Date | null } | null, id: string | undefined): AdapterPayload | undefined {
    if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
    const payload = row.payload as AdapterPayload;
    return id !== undefined && this.model !== "Client" ? { ...payload, jti: id } : payload;
  }
}

/** Ends a grant: its record and every code and token issued under it, of every model. */
export async function destroyGrantRecords(client: DbClient, grantId: string): Promise<number> {
  const { count } = await client.oAuthRecord.deleteMany({ where: { grantId } });
  return count;
}

/** Marks the holder's connection of a grant as revoked (it leaves /account/agents). */
export async function markConnectionRevoked(client: DbClient, grantId: string): Promise<void> {
  await client.$executeRaw`UPDATE agent_connections SET revoked_at = now() WHERE grant_id = ${grantId} AND revoked_at IS NULL`;
}

/** Ends a grant at once: its connection is marked revoked, then the grant and its codes and tokens go. */
export async function endGrant(client: DbClient, grantId: string): Promise<void> {
  await markConnectionRevoked(client, grantId);
  await destroyGrantRecords(client, grantId);
}

/** Removes expired records (the cleanup command); answers how many went. */
export async function deleteExpiredOAuthRecords(client: DbClient, now = new Date()): Promise<number> {
  const { count } = await client.oAuthRecord.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}
