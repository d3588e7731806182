/**
 * Whether a thrown value means "the database cannot be reached or cannot serve right now" rather
 * than a fault of the request or of the code: the server is down, restarting or refusing
 * connections, a connection broke mid-request, no pooled connection came free in time, or a
 * statement ran out its time. lib/http/errors.ts answers these 503 `service_unavailable` with
 * Retry-After; anything else stays a 500. The one place these errors are recognised.
 *
 * Errors arrive in several wrappings: node-postgres's own (a server error with a SQLSTATE, a
 * socket error with an errno code, a plain Error for a pool timeout or a closed connection),
 * Prisma's (a known request error with a P-code, a raw query's SQLSTATE in `meta.code`, a driver
 * adapter error whose `cause` names the kind), so each layer is looked at down the cause chain.
 */

/** SQLSTATEs: the server shutting down or restarting, connection failures, too many clients, timeouts. */
const SQLSTATE = /^(08...|57P0[1-3]|53300|57014|55P03)$/;
/** Node socket errors of a lost or refused connection. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH"]);
/**
 * Prisma: can't reach the server (P1001), timed out (P1008), server closed the connection (P1017),
 * timed out fetching a pooled connection (P2024), a transaction that could not start or ran out
 * its time (P2028), too many connections (P2037).
 */
const PRISMA_CODES = new Set(["P1001", "P1008", "P1017", "P2024", "P2028", "P2037"]);
/** @prisma/adapter-pg's names for the same (driver adapter errors carry them as `cause.kind`). */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** node-postgres errors that carry no code, and Prisma's words for the kinds above in a raw query's failure (P2010). */
const MESSAGES = [
  /Can't reach database server/i,
  /Server has closed the connection/i,
  /timeout exceeded when trying to connect/i,
  /Connection terminated/i,
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /terminating connection due to administrator command/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /canceling statement due to statement timeout/i,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  for (let at: unknown = err; at && typeof at === "object" && !seen.has(at); at = (at as { cause?: unknown }).cause) {
    seen.add(at);
    const e = at as { code?: unknown; kind?: unknown; originalCode?: unknown; meta?: { code?: unknown; message?: unknown }; message?: unknown };
    for (const code of [e.code, e.originalCode, e.meta?.code]) {
      if (typeof code !== "string") continue;
      if (SQLSTATE.test(code) || SOCKET_CODES.has(code) || PRISMA_CODES.has(code)) return true;
    }
    if (typeof e.kind === "string" && ADAPTER_KINDS.has(e.kind)) return true;
    for (const message of [e.message, e.meta?.message]) {
      if (typeof message === "string" && MESSAGES.some((re) => re.test(message))) return true;
    }
  }
  return false;
}
