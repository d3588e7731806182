import { db } from "@/lib/db";
import { catalogChangesState } from "@/lib/db/changes";
import { replicaStatus } from "@/lib/db/replicas";
import { rateLimitStoreReachable } from "@/lib/ratelimit";

/**
 * What one app process can tell about itself, for a load balancer's health check and an operator
 * (docs/operations.md): whether its database answers (without it nothing can be served), whether
 * the shared rate-limit store answers (without it the process keeps serving with in-process
 * buckets), and whether it hears catalog changes (without them its caches fall back to their
 * TTLs). Secrets, addresses and error texts stay in the logs.
 */
export interface Health {
  /** `ok`; `degraded` while Redis or the change feed is away (still serving); `unavailable` without the database. */
  status: "ok" | "degraded" | "unavailable";
  database: "ok" | "unreachable";
  /** `not_configured`: no REDIS_URL, rate limits are per process by design. */
  redis: "ok" | "unreachable" | "not_configured";
  /** `idle` until a cache first subscribes to catalog changes (NOTIFY catalog_changes). */
  catalog_changes: "listening" | "reconnecting" | "idle";
  /**
   * With DATABASE_REPLICA_URLS, once the first catalog read made the reader: each replica
   * (`replica 1`, … in the variable's order) `serving` catalog reads, `behind` (past the lag bound,
   * or not yet past this process's latest write: the primary answers meanwhile) or `unreachable`.
   * Informational: the primary serves whatever a replica does not, so `status` does not change.
   */
  replicas?: Record<string, "serving" | "behind" | "unreachable">;
}

export async function checkHealth(): Promise<Health> {
  const [database, redis] = await Promise.all([
    db()
      .$queryRaw`SELECT 1`
      .then(() => "ok" as const)
      .catch(() => "unreachable" as const),
    rateLimitStoreReachable().then((up) => (up === null ? "not_configured" : up ? "ok" : "unreachable")),
  ]);
  const catalog_changes = catalogChangesState();
  const status = database !== "ok" ? "unavailable" : redis === "unreachable" || catalog_changes === "reconnecting" ? "degraded" : "ok";
  const replicas = replicaStatus();
  return {
    status,
    database,
    redis,
    catalog_changes,
    ...(replicas === null
      ? {}
      : { replicas: Object.fromEntries(replicas.map((r) => [r.name, !r.up ? "unreachable" : r.eligible ? "serving" : "behind"])) }),
  };
}
