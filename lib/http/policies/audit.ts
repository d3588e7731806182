import { auditRefused, auditSucceeded, type AuditEntry } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import { logEvent } from "@/lib/log";
import type { Policy, RequestCtx } from "../pipeline";
import { withDb } from "../database";

/**
 * The seller API's writes in the store's audit log (lib/audit/). Two policies, one each side of
 * the transaction: `auditRefusals`, outermost but for `observe`, records an attempt a store's key
 * made and was refused (its scope, its input, its state; not a rate-limit refusal, which would
 * let a flood write as fast as it is refused) once its transaction has rolled back;
 * `auditChanges`, innermost, records a change in its own transaction. An Idempotency-Key replay
 * changes nothing and records nothing.
 */

/** What an operation acts on, by its resource (`seller.<resource>.<verb>`). */
const TARGET_TYPES: Record<string, string | null> = {
  listings: "listing",
  inventory: null,
  shipping_templates: "shipping_template",
  orders: "order",
  returns: "return",
  webhook_endpoints: "webhook_endpoint",
  webhook_deliveries: "webhook_delivery",
};

const actionOf = (ctx: RequestCtx) => ctx.routeName.replace(/^seller\./, "");
const targetType = (ctx: RequestCtx) => TARGET_TYPES[actionOf(ctx).split(".")[0]!] ?? null;

function entryOf(ctx: RequestCtx, createdId?: string): AuditEntry | null {
  const caller = ctx.principal;
  if (caller?.kind !== "api_key") return null;
  const action = actionOf(ctx);
  const type = targetType(ctx);
  const id = ctx.params.id ?? ctx.params.number ?? createdId ?? null;
  return { storeId: caller.storeId, actor: { type: "api_key", keyId: caller.keyId }, action, target: type ? { type, id } : null, requestId: ctx.requestId };
}

export const auditRefusals: Policy = async (ctx, next) => {
  try {
    return await next();
  } catch (err) {
    // Refused before its input was parsed (its scope), the path's ids are still in the route's.
    if (Object.keys(ctx.params).length === 0) {
      const raw = (await Promise.resolve(ctx.routeContext?.params).catch(() => undefined)) ?? {};
      ctx.params = Object.fromEntries(Object.entries(raw).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])));
    }
    const entry = entryOf(ctx);
    if (entry && err instanceof AppError && err.code !== "rate_limited") {
      await withDb((client) => auditRefused(client, entry, err)).catch((e) => logEvent("error", "could not record a refusal in the audit log", { request_id: ctx.requestId, error: String(e) }));
    }
    throw err;
  }
};

export const auditChanges: Policy = async (ctx, next) => {
  const response = await next();
  if (response.status >= 400 || ctx.principal?.kind !== "api_key") return response;
  if (!ctx.tx) throw new Error("auditChanges needs the transaction policy before it");
  // A creation names its object in the answer (`data.id`); other writes in their path, or act on
  // no one object (an inventory batch: its answer, 100 adjustments, is not read again).
  const names = (ctx.params.id ?? ctx.params.number) !== undefined || targetType(ctx) === null;
  const created = names ? undefined : ((await response.clone().json()) as { data?: { id?: unknown } }).data?.id;
  await auditSucceeded(ctx.tx, entryOf(ctx, typeof created === "string" ? created : undefined)!);
  return response;
};
