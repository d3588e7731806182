import type { ErrorCode, RejectedLine } from "@/lib/errors";

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
