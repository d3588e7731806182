import { createHash } from "node:crypto";
import { principalKey } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import type { Policy } from "../pipeline";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const KEY = /^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/;
const TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Idempotency-Key (decisions.md "Seller API"), inside the transaction policy. A key belongs to its
 * caller and lives 24 h. The first request's status and body are stored in the transaction of the
 * change itself; a retry with the same method, path and body replays them
 * (`Idempotent-Replayed: true`, with the new request's id); another body or path is 422; a retry
 * while the first still runs is 409 with Retry-After (a transaction-scoped advisory lock on the
 * key says so without waiting). Errors are not stored: they changed nothing.
 */
export const idempotency: Policy = async (ctx, next) => {
  const key = ctx.request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return next();
  if (!KEY.test(key)) {
    throw new AppError("parameter_invalid", `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters.`, IDEMPOTENCY_HEADER);
  }
  const tx = ctx.tx;
  if (!tx || !ctx.principal) throw new Error("idempotency needs the caller and transaction policies before it");
  const owner = principalKey(ctx.principal);
  const method = ctx.request.method;
  const path = ctx.request.nextUrl.pathname;
  const requestHash = new Uint8Array(
    createHash("sha256").update(`${method}\n${path}\n${canonicalJson(ctx.body ?? null)}`).digest(),
  );

  const [lock] = await tx.$queryRaw<[{ locked: boolean }]>`
    SELECT pg_try_advisory_xact_lock(hashtextextended(${`idempotency\n${owner}\n${key}`}, 0)) AS locked`;
  if (!lock?.locked) {
    throw new AppError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed; retry shortly.", IDEMPOTENCY_HEADER, {
      headers: { "Retry-After": "1" },
    });
  }
  const stored = await tx.idempotencyKey.findFirst({ where: { owner, key, expiresAt: { gt: new Date() } } });
  if (stored) {
    if (Buffer.compare(Buffer.from(stored.requestHash), Buffer.from(requestHash)) !== 0) {
      throw new AppError(
        "idempotency_key_reused",
        `This Idempotency-Key was used with another request (${stored.method} ${stored.path} with another body); use a new key for a new request.`,
        IDEMPOTENCY_HEADER,
      );
    }
    const body = withRequestId(stored.response, ctx.requestId);
    return new Response(JSON.stringify(body), {
      status: stored.status,
      headers: { "Content-Type": "application/json; charset=utf-8", "Idempotent-Replayed": "true" },
    });
  }

  const response = await next();
  if (response.status >= 400) return response;
  const text = await response.text();
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const record = withRequestId(parsed, undefined);
  const expiresAt = new Date(Date.now() + TTL_MS);
  await tx.idempotencyKey.upsert({
    where: { owner_key: { owner, key } },
    create: { owner, key, method, path, requestHash, status: response.status, response: record as object, expiresAt },
    update: { method, path, requestHash, status: response.status, response: record as object, createdAt: new Date(), expiresAt },
  });
  return new Response(text, { status: response.status, headers: response.headers });
};

/** The body with `meta.request_id` set to `requestId` (or removed when undefined). */
function withRequestId(body: unknown, requestId: string | undefined): Record<string, unknown> {
  const copy = { ...(body as Record<string, unknown>) };
  const meta = { ...(copy.meta as Record<string, unknown> | undefined) };
  delete meta.request_id;
  copy.meta = requestId === undefined ? meta : { ...meta, request_id: requestId };
  return copy;
}

/** JSON with object keys sorted, so the same body always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
