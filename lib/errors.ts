/**
 * Errors the domain raises. Domain modules know nothing of HTTP: they throw an AppError with a
 * stable code; lib/http/errors.ts maps each code to a status and an error type.
 */
export const ERROR_CODES = [
  "parameter_invalid",
  "parameter_missing",
  "body_invalid_json",
  "product_not_found",
  "help_article_not_found",
  "route_not_found",
  "method_not_allowed",
  "rate_limited",
  "internal_error",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = "AppError";
  }
}
