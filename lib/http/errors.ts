import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { AppError, ERROR_TABLE, type ErrorCode, type ErrorType } from "@/lib/errors";
import { logDatabaseUnavailable, logError } from "./log";

export type { ErrorType } from "@/lib/errors";

export interface ErrorBody {
  error: {
    type: ErrorType;
    code: ErrorCode;
    message: string;
    param?: string;
    request_id: string;
    [extra: string]: unknown;
  };
}

/** The envelope of one error: type from the code table, then param and any extra fields. */
export function errorBody(
  code: ErrorCode,
  message: string,
  requestId: string,
  param?: string,
  extra?: Record<string, unknown>,
  type: ErrorType = ERROR_TABLE[code].type,
): ErrorBody {
  return {
    error: {
      type,
      code,
      message,
      ...(param === undefined ? {} : { param }),
      ...extra,
      request_id: requestId,
    },
  };
}

const INTERNAL_MESSAGE = "Something went wrong on our side. Retry later; quote the request id if it persists.";
const UNAVAILABLE_MESSAGE = "The service is briefly unable to answer. Retry after the Retry-After seconds; retry a write with the same Idempotency-Key.";
/** Seconds a client waits before retrying while the database is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** The code anything thrown answers as (an AppError's own; a lost database 503; else 500). */
export function failureCode(err: unknown): ErrorCode {
  if (err instanceof AppError) return err.code;
  return isDatabaseUnavailable(err) ? "service_unavailable" : "internal_error";
}

/**
 * The status, envelope and headers for anything thrown: an AppError as itself; the database
 * unreachable, restarting or out of connections (lib/db/unavailable.ts) as a 503 with
 * Retry-After; anything else as a 500. Neither says anything of its cause (which goes to the
 * error log).
 */
export function errorOf(err: unknown, requestId: string): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (err instanceof AppError) {
    return {
      status: err.status,
      body: errorBody(err.code, err.message, requestId, err.param, err.extra, err.type),
      headers: err.headers ?? {},
    };
  }
  if (isDatabaseUnavailable(err)) {
    logDatabaseUnavailable(requestId, err);
    return {
      status: ERROR_TABLE.service_unavailable.status,
      body: errorBody("service_unavailable", UNAVAILABLE_MESSAGE, requestId),
      headers: { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    };
  }
  logError(requestId, err);
  return { status: ERROR_TABLE.internal_error.status, body: errorBody("internal_error", INTERNAL_MESSAGE, requestId), headers: {} };
}

/** An error as a JSON response (no-store). */
export function errorResponse(err: unknown, requestId: string): Response {
  const { status, body, headers } = errorOf(err, requestId);
  const all: Record<string, string> = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers };
  // The rest of an oversized body was never read (lib/http/body.ts stops at the limit). Left on
  // a kept-alive connection, those bytes stall the next request on it until the server's
  // keep-alive timeout resets it; closing the connection after this answer spares the client.
  if (body.error.code === "body_too_large") all.Connection = "close";
  return new Response(JSON.stringify(body), { status, headers: all });
}
