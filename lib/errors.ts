/**
 * Errors the domain raises. Domain modules know nothing of HTTP: they throw an AppError with a
 * stable code; lib/http/errors.ts maps each code to a status and an error type.
 */
export const ERROR_CODES = [
  "parameter_invalid",
  "parameter_missing",
  "body_invalid_json",
  "body_too_large",
  "content_type_invalid",
  "no_purchasable_lines",
  "product_not_found",
  "help_article_not_found",
  "route_not_found",
  "method_not_allowed",
  "rate_limited",
  "internal_error",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Lines of a cart-link request that could not be accepted (spec 4.4). */
export interface RejectedLine {
  listing_id: string;
  reason: "unavailable" | "insufficient_stock";
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    /** Only for `no_purchasable_lines`: carried as `error.rejected`. */
    readonly rejected?: RejectedLine[],
  ) {
    super(message);
    this.name = "AppError";
  }
}
