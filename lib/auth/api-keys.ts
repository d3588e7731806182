import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { ApiKeyPrincipal } from "./principal";
import { isSellerScope, SELLER_SCOPES, type SellerScope } from "./scopes";

/**
 * Store API keys (spec 5, decisions.md "Seller API"): `mk_live_<key_id>.<secret>`. The key id is
 * public (it names the key in the dashboard and in `admin -- key revoke`); the secret is 256
 * random bits of which only the SHA-256 is stored (a slow KDF buys nothing for a random secret),
 * compared in constant time, with its last 4 characters kept for display.
 */
export const KEY_PREFIX = "mk_live_";
const KEY_PATTERN = /^mk_live_([a-z0-9]{16})\.([A-Za-z0-9_-]{43})$/;
export const API_KEY_NAME_MAX = 100;
/** A key may be made to expire 1 to 3,650 days after it is created (or never). */
export const API_KEY_EXPIRY_DAYS_MAX = 3650;

export interface ApiKeySummary {
  id: string;
  keyId: string;
  storeId: string;
  name: string;
  scopes: SellerScope[];
  /** `mk_live_<key_id>.…last4`: all the dashboard ever shows again. */
  display: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** Null: never expires. */
  expiresAt: Date | null;
}

function hashSecret(secret: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash("sha256").update(secret).digest());
}

function displayOf(keyId: string, last4: string): string {
  return `${KEY_PREFIX}${keyId}.…${last4}`;
}

function summaryOf(row: {
  id: string;
  keyId: string;
  storeId: string;
  name: string;
  scopes: string[];
  last4: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
}): ApiKeySummary {
  return {
    id: row.id,
    keyId: row.keyId,
    storeId: row.storeId,
    name: row.name,
    scopes: row.scopes.filter(isSellerScope),
    display: displayOf(row.keyId, row.last4),
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
    expiresAt: row.expiresAt,
  };
}

/** Checks an expiry given in days: a whole number from 1 to 3,650 (undefined: never). */
export function checkExpiryDays(days: unknown): number | undefined {
  if (days === undefined) return undefined;
  const n = typeof days === "string" && /^[0-9]{1,5}$/.test(days.trim()) ? Number(days.trim()) : typeof days === "number" ? days : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > API_KEY_EXPIRY_DAYS_MAX) {
    throw new AppError("parameter_invalid", `A key expires 1 to ${API_KEY_EXPIRY_DAYS_MAX.toLocaleString("en-US")} days after it is created, or never.`, "expires_in_days");
  }
  return n;
}

/** Checks a scope list for a new key: a non-empty subset of the seller scopes, in canonical order. */
export function normaliseScopes(scopes: readonly string[]): SellerScope[] {
  const unknown = scopes.filter((s) => !isSellerScope(s));
  if (unknown.length > 0) {
    throw new AppError("parameter_invalid", `Unknown scope '${unknown[0]}'; scopes are ${SELLER_SCOPES.join(", ")}.`, "scopes");
  }
  if (scopes.length === 0) throw new AppError("parameter_invalid", "A key needs at least one scope.", "scopes");
  return SELLER_SCOPES.filter((s) => scopes.includes(s));
}

/** Creates a key; the full key is in the result and nowhere else, ever. */
export async function createApiKey(
  client: DbClient,
  input: { storeId: string; name: string; scopes: readonly string[]; createdBy?: string | null; expiresInDays?: unknown },
): Promise<{ key: string; summary: ApiKeySummary }> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > API_KEY_NAME_MAX || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new AppError("parameter_invalid", `A key name is 1 to ${API_KEY_NAME_MAX} printable characters.`, "name");
  }
  const scopes = normaliseScopes(input.scopes);
  const days = checkExpiryDays(input.expiresInDays);
  const keyId = randomBytes(8).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  const row = await client.apiKey.create({
    data: {
      storeId: input.storeId,
      keyId,
      secretHash: hashSecret(secret),
      last4: secret.slice(-4),
      name,
      scopes,
      createdBy: input.createdBy ?? null,
      expiresAt: days === undefined ? null : new Date(Date.now() + days * 24 * 60 * 60 * 1000),
    },
  });
  return { key: `${KEY_PREFIX}${keyId}.${secret}`, summary: summaryOf(row) };
}

/** The store's keys, newest first, revoked ones included (marked). */
export async function listApiKeys(client: DbClient, storeId: string): Promise<ApiKeySummary[]> {
  const rows = await client.apiKey.findMany({ where: { storeId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return rows.map(summaryOf);
}

/** One of the store's keys by its `<key_id>`, or null. */
export async function getApiKey(client: DbClient, storeId: string, keyId: string): Promise<ApiKeySummary | null> {
  if (!/^[a-z0-9]{16}$/.test(keyId)) return null;
  const row = await client.apiKey.findFirst({ where: { keyId, storeId } });
  return row ? summaryOf(row) : null;
}

/**
 * Revokes a key by its `<key_id>` (optionally only within one store). Revoking twice is fine;
 * an unknown key id (or another store's) returns null.
 */
export async function revokeApiKey(client: DbClient, keyId: string, storeId?: string): Promise<ApiKeySummary | null> {
  const row = await client.apiKey.findFirst({ where: { keyId, ...(storeId ? { storeId } : {}) } });
  if (!row) return null;
  const updated = row.revokedAt
    ? row
    : await client.apiKey.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
  return summaryOf(updated);
}

/**
 * Resolves the value of `Authorization: Bearer <value>` to the key's principal, or throws:
 * `api_key_invalid` (malformed, unknown, wrong secret), `api_key_revoked`, `api_key_expired`,
 * `store_inactive`.
 */
export async function authenticateApiKey(client: DbClient, value: string): Promise<ApiKeyPrincipal> {
  const match = KEY_PATTERN.exec(value);
  if (!match) throw invalid();
  const [, keyId, secret] = match as unknown as [string, string, string];
  // One round trip: the key, its store's status, and whether last_used_at is due for a touch.
  const [row] = await client.$queryRaw<KeyRow[]>`
    SELECT k.id::text AS id, k.store_id::text AS store_id, k.secret_hash, k.scopes, k.revoked_at IS NOT NULL AS revoked,
           coalesce(k.expires_at <= now(), false) AS expired,
           s.status::text AS store_status,
           (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') AS touch_due
    FROM api_keys k JOIN stores s ON s.id = k.store_id
    WHERE k.key_id = ${keyId}`;
  // Hash even when the key id is unknown, so both answers take the same time.
  const presented = hashSecret(secret);
  const stored = row ? new Uint8Array(row.secret_hash) : new Uint8Array(presented.length);
  if (!row || stored.length !== presented.length || !timingSafeEqual(stored, presented)) throw invalid();
  if (row.revoked) throw new AppError("api_key_revoked", "This API key was revoked. Create a new one in the seller dashboard.");
  if (row.expired) throw new AppError("api_key_expired", "This API key has expired. Create a new one in the seller dashboard.");
  if (row.store_status !== "active") {
    throw new AppError("store_inactive", `This key's store is ${row.store_status}; its keys cannot be used until it is active again.`);
  }
  if (row.touch_due) touchLastUsed(client, row.id);
  return { kind: "api_key", apiKeyId: row.id, keyId, storeId: row.store_id, scopes: row.scopes };
}

interface KeyRow {
  id: string;
  store_id: string;
  secret_hash: Uint8Array;
  scopes: string[];
  revoked: boolean;
  expired: boolean;
  store_status: string;
  touch_due: boolean;
}

function invalid() {
  return new AppError("api_key_invalid", "The API key is not valid. Send `Authorization: Bearer mk_live_<key_id>.<secret>`.");
}

// At most one write a minute per key (the dashboard shows the time to the minute), off the
// request's path: the lookup says when one is due, and the condition keeps concurrent touches to one.
function touchLastUsed(client: DbClient, id: string) {
  client.$executeRaw`UPDATE api_keys SET last_used_at = now()
    WHERE id = ${id}::uuid AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`.catch(() => {});
}
