import { AppError, type ErrorCode, type RejectedLine } from "@/lib/errors";
import { logError } from "./log";

export type ErrorType =
  | "invalid_request_error"
  | "not_found_error"
  | "method_not_allowed_error"
  | "rate_limit_error"
  | "api_error";

/** The one table from error code to HTTP status and error type. */
export const ERROR_TABLE: Record<ErrorCode, { status: number; type: ErrorType }> = {
  parameter_invalid: { status: 400, type: "invalid_request_error" },
  parameter_missing: { status: 400, type: "invalid_request_error" },
  body_invalid_json: { status: 400, type: "invalid_request_error" },
  body_too_large: { status: 413, type: "invalid_request_error" },
  content_type_invalid: { status: 415, type: "invalid_request_error" },
  no_purchasable_lines: { status: 400, type: "invalid_request_error" },
  product_not_found: { status: 404, type: "not_found_error" },
  help_article_not_found: { status: 404, type: "not_found_error" },
  route_not_found: { status: 404, type: "not_found_error" },
  method_not_allowed: { status: 405, type: "method_not_allowed_error" },
  rate_limited: { status: 429, type: "rate_limit_error" },
  internal_error: { status: 500, type: "api_error" },
};

export interface ErrorBody {
  error: {
    type: ErrorType;
    code: ErrorCode;
    message: string;
    param?: string;
    rejected?: RejectedLine[];
    request_id: string;
  };
}

export function errorBody(
  code: ErrorCode,
  message: string,
  requestId: string,
  param?: string,
  rejected?: RejectedLine[],
): ErrorBody {
  const { type } = ERROR_TABLE[code];
  return {
    error: {
      type,
      code,
      message,
      ...(param === undefined ? {} : { param }),
      ...(rejected === undefined ? {} : { rejected }),
      request_id: requestId,
    },
  };
}

const INTERNAL_MESSAGE = "Something went wrong on our side. Retry later; quote the request id if it persists.";

/**
 * The status and envelope for anything thrown: an AppError as itself, anything else as a 500
 * that says nothing of its cause (the cause goes to the error log).
 */
export function errorOf(err: unknown, requestId: string): { status: number; body: ErrorBody } {
  if (err instanceof AppError) {
    return { status: ERROR_TABLE[err.code].status, body: errorBody(err.code, err.message, requestId, err.param, err.rejected) };
  }
  logError(requestId, err);
  return { status: ERROR_TABLE.internal_error.status, body: errorBody("internal_error", INTERNAL_MESSAGE, requestId) };
}
