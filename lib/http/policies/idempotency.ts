import { createHash } from "node:crypto";
import { principalKey } from "@/lib/auth/principal";
import type { Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { withDb } from "../database";
import type { Policy, RequestCtx } from "../pipeline";

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
  const tx = ctx.tx;
  if (!tx) throw new Error("idempotency needs the transaction policy before it");
  checkKey(key);
  const request = { owner: API_FLAVOUR.owner(ctx), key, method: ctx.request.method, path: ctx.request.nextUrl.pathname, body: ctx.body ?? null };
  const outcome = await keyedInTransaction(tx, request, async () => {
    const response = await next();
    if (response.status >= 400) return { answer: response };
    const text = await response.text();
    return { answer: new Response(text, { status: response.status, headers: response.headers }), keep: { status: response.status, response: API_FLAVOUR.record(text) } };
  });
  return "replayed" in outcome ? replay(outcome.replayed, API_FLAVOUR.replay(outcome.replayed.response, ctx.requestId)) : outcome.answer;
};

/**
 * The transactional variant's steps, for any door whose change runs in `tx`: a retry while the
 * first request still runs is refused without waiting (a transaction-scoped advisory lock on the
 * key); a kept answer of the same request is `replayed`, another request under the key refused;
 * otherwise `work` runs and what it says to `keep` is recorded in the same transaction as its
 * change, so the two commit together or not at all.
 */
export async function keyedInTransaction<T>(
  tx: Prisma.TransactionClient,
  request: KeyedRequest,
  work: KeyedWork<T>,
): Promise<KeyedOutcome<T>> {
  const { owner, key, method, path, param, requestHash } = described(request);
  const [lock] = await tx.$queryRaw<[{ locked: boolean }]>`
    SELECT pg_try_advisory_xact_lock(hashtextextended(${`idempotency\n${owner}\n${key}`}, 0)) AS locked`;
  if (!lock?.locked) throw keyInUse(param);
  const stored = await tx.idempotencyKey.findFirst({ where: { owner, key, expiresAt: { gt: new Date() } } });
  if (stored) {
    if (!sameHash(stored.requestHash, requestHash)) throw keyReused(stored, param);
    return { replayed: { status: stored.status, response: stored.response } };
  }
  const result = await work();
  if (result.keep) {
    const expiresAt = new Date(Date.now() + TTL_MS);
    const kept = { method, path, requestHash, status: result.keep.status, response: result.keep.response as object };
    await tx.idempotencyKey.upsert({
      where: { owner_key: { owner, key } },
      create: { owner, key, ...kept, expiresAt },
      update: { ...kept, createdAt: new Date(), expiresAt },
    });
  }
  return { answer: result.answer };
}

/**
 * A key is "claimed" by a row with this status while its first request runs (the claiming
 * variant below); a claim older than CLAIM_TTL_MS was left by a crash and may be taken again.
 */
const CLAIMED = 0;
const CLAIM_TTL_MS = 2 * 60 * 1000;

/**
 * Idempotency-Key for an operation whose domain call commits in a transaction of its own and is
 * itself idempotent by a token derived from the key (checkout: `placeOrder` answers the order a
 * checkout token already placed), so that the record cannot share the change's transaction. The
 * key is claimed first, in a short transaction (a row in its "running" state): a retry meanwhile
 * is 409 `idempotency_key_in_use`, another body or path 422, a finished one replays the stored
 * answer. A failed request releases its claim (errors are not stored). Were the process to stop
 * between the change and its record, the claim expires and a retry runs the call again, which the
 * domain's token turns into the answer of the change already made: never a second change.
 */
export const claimedIdempotency: Policy = (ctx, next) => claimed(ctx, next, API_FLAVOUR);

/**
 * How a surface keeps its keys: whose key it is, and how a stored answer is stamped with the
 * request that gets it (the APIs' envelope carries `meta.request_id`; a commerce protocol's
 * answer is replayed exactly as first sent).
 */
export interface IdempotencyFlavour {
  owner: (ctx: RequestCtx) => string;
  /** What is stored of a first answer's body. */
  record: (text: string) => unknown;
  /** The body a replay answers, from what was stored. */
  replay: (stored: unknown, requestId: string) => string;
}

const API_FLAVOUR: IdempotencyFlavour = {
  owner: (ctx) => {
    if (!ctx.principal) throw new Error("idempotency needs the caller policy before it");
    return principalKey(ctx.principal);
  },
  record: (text) => withRequestId(JSON.parse(text), undefined),
  replay: (stored, requestId) => JSON.stringify(withRequestId(stored, requestId)),
};

/** `claimedIdempotency` for a surface of its own flavour (lib/http/protocol-route.ts). */
export function claimedIdempotencyFor(flavour: IdempotencyFlavour): Policy {
  return (ctx, next) => claimed(ctx, next, flavour);
}

async function claimed(ctx: RequestCtx, next: () => Promise<Response>, flavour: IdempotencyFlavour): Promise<Response> {
  const key = ctx.request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return next();
  checkKey(key);
  const request = { owner: flavour.owner(ctx), key, method: ctx.request.method, path: ctx.request.nextUrl.pathname, body: ctx.body ?? null };
  const outcome = await onceByKey(request, async () => {
    ctx.idempotencyKey = key;
    const response = await next();
    if (response.status >= 400) return { answer: response };
    const text = await response.text();
    return { answer: new Response(text, { status: response.status, headers: response.headers }), keep: { status: response.status, response: flavour.record(text) } };
  });
  return "replayed" in outcome ? replay(outcome.replayed, flavour.replay(outcome.replayed.response, ctx.requestId)) : outcome.answer;
}

/** One request carrying an idempotency key, however it came (an HTTP header, a tool argument). */
export interface KeyedRequest {
  /** Whose key it is: keys of different owners never meet. */
  owner: string;
  key: string;
  /** What the request asks: the same key with another method, path or body is refused. */
  method: string;
  path: string;
  body: unknown;
  /** How the request names its key, in a refusal (the header, or a tool's argument). */
  param?: string;
}

/** What a first request answered, as kept for its retries. */
export interface KeptAnswer {
  status: number;
  response: unknown;
}

/** A keyed request's work: its answer, and what of it to keep for retries (nothing: an error). */
export type KeyedWork<T> = () => Promise<{ answer: T; keep?: KeptAnswer }>;
/** A first request's answer, or the kept answer a retry gets. */
export type KeyedOutcome<T> = { replayed: KeptAnswer } | { answer: T };

/**
 * The claim, run and record of one keyed request (the claiming variant's steps, for any door):
 * a finished first request's kept answer is `replayed`; a running one or another request under
 * the same key is refused; otherwise `work` runs under the claim, and what it says to `keep` is
 * recorded (nothing kept, or a throw, releases the claim: errors changed nothing).
 */
export async function onceByKey<T>(
  request: KeyedRequest,
  work: KeyedWork<T>,
): Promise<KeyedOutcome<T>> {
  const { owner, key, method, path, param, requestHash } = described(request);
  const where = { owner_key: { owner, key } };

  const stored = await withDb((client) =>
    client.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`idempotency\n${owner}\n${key}`}, 0))`;
      const row = await tx.idempotencyKey.findFirst({ where: { owner, key, expiresAt: { gt: new Date() } } });
      if (row) {
        if (!sameHash(row.requestHash, requestHash)) throw keyReused(row, param);
        if (row.status !== CLAIMED) return row;
        if (Date.now() - row.createdAt.getTime() < CLAIM_TTL_MS) {
          throw keyInUse(param);
        }
      }
      const claim = { method, path, requestHash, status: CLAIMED, response: {}, createdAt: new Date(), expiresAt: new Date(Date.now() + TTL_MS) };
      await tx.idempotencyKey.upsert({ where, create: { owner, key, ...claim }, update: claim });
      return null;
    }),
  );
  if (stored) return { replayed: { status: stored.status, response: stored.response } };

  const release = () => withDb((client) => client.idempotencyKey.deleteMany({ where: { owner, key, status: CLAIMED } }));
  let result: { answer: T; keep?: KeptAnswer };
  try {
    result = await work();
  } catch (err) {
    await release();
    throw err;
  }
  if (!result.keep) {
    await release();
    return { answer: result.answer };
  }
  const keep = result.keep;
  await withDb((client) => client.idempotencyKey.update({ where, data: { status: keep.status, response: keep.response as object } }));
  return { answer: result.answer };
}

/**
 * A keyed request as kept: what it asks (method, path and body) hashed, since the same key with
 * another request is refused; and how it names its key in a refusal.
 */
function described(request: KeyedRequest) {
  const { method, path, body } = request;
  const requestHash = new Uint8Array(createHash("sha256").update(`${method}\n${path}\n${canonicalJson(body ?? null)}`).digest());
  return { ...request, param: request.param ?? IDEMPOTENCY_HEADER, requestHash };
}

function checkKey(key: string): void {
  if (!KEY.test(key)) {
    throw new AppError("parameter_invalid", `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters.`, IDEMPOTENCY_HEADER);
  }
}

function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
}

function keyInUse(param: string): AppError {
  return new AppError("idempotency_key_in_use", `A request with this ${param} is still being processed; retry shortly.`, param, {
    headers: { "Retry-After": "1" },
  });
}

function keyReused(stored: { method: string; path: string }, param: string = IDEMPOTENCY_HEADER): AppError {
  return new AppError(
    "idempotency_key_reused",
    `This ${param} was used with another request (${stored.method} ${stored.path} with another body); use a new key for a new request.`,
    param,
  );
}

function replay(stored: { status: number }, body: string): Response {
  return new Response(body, {
    status: stored.status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Idempotent-Replayed": "true" },
  });
}

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
