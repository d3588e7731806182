import { logEvent } from "@/lib/log";

/** One structured JSON line per request (request id, route, status, duration, IP, User-Agent). */
export function logRequest(entry: {
  request_id: string;
  method: string;
  route: string;
  status: number;
  duration_ms: number;
  ip: string;
  user_agent: string | null;
  error?: string;
}) {
  if (process.env.LOG_REQUESTS === "off") return;
  process.stdout.write(`${JSON.stringify({ level: "info", msg: "request", ...entry })}\n`);
}

export function logError(requestId: string, err: unknown) {
  const detail = err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : { err };
  logEvent("error", "unhandled", { request_id: requestId, ...detail });
}

/**
 * A request the database could not serve (answered 503): one line per request, without a stack,
 * so that an outage reads as what it is rather than as a flood of unhandled errors.
 */
export function logDatabaseUnavailable(requestId: string, err: unknown) {
  const detail = err instanceof Error ? { name: err.name, message: err.message } : { err: String(err) };
  logEvent("warn", "database unavailable", { request_id: requestId, ...detail });
}
