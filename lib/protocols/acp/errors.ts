import { AppError, type ErrorCode } from "@/lib/errors";
import { ACP_VERSION } from "./version";

/**
 * ACP's flat error (`$defs/Error`: `{ type, code, message, param?, supported_versions? }`, `type`
 * one of `invalid_request`, `processing_error`, `service_unavailable`). Statuses: 400 for what the
 * request got wrong, 401 without a bearer key, 403 an agent's limits, 404 an unknown session, 405
 * canceling a finished one, 409 an idempotency key still in flight, 422 one reused with another
 * body (RFC 6.4; rfc.affiliate_attribution.md says 409 for that: the agentic checkout RFC, which
 * supersedes it on idempotency, and the OpenAPI say 422), 429, 500, 503.
 */

export interface AcpErrorBody {
  type: "invalid_request" | "processing_error" | "service_unavailable";
  code: string;
  message: string;
  param?: string;
  supported_versions?: string[];
}

const ACP_CODES: Partial<Record<ErrorCode, { status: number; code: string }>> = {
  parameter_invalid: { status: 400, code: "invalid" },
  parameter_missing: { status: 400, code: "missing" },
  body_invalid_json: { status: 400, code: "invalid_json" },
  body_too_large: { status: 413, code: "request_too_large" },
  content_type_invalid: { status: 415, code: "unsupported_media_type" },
  checkout_session_not_found: { status: 404, code: "checkout_session_not_found" },
  route_not_found: { status: 404, code: "not_found" },
  method_not_allowed: { status: 405, code: "method_not_allowed" },
  idempotency_key_reused: { status: 422, code: "idempotency_conflict" },
  idempotency_key_in_use: { status: 409, code: "idempotency_in_flight" },
  acp_api_version_unsupported: { status: 400, code: "unsupported_api_version" },
  acp_idempotency_key_missing: { status: 400, code: "idempotency_key_required" },
  acp_session_not_cancelable: { status: 405, code: "checkout_session_not_cancelable" },
  checkout_session_closed: { status: 400, code: "checkout_session_closed" },
  token_missing: { status: 401, code: "unauthorized" },
  rate_limited: { status: 429, code: "rate_limited" },
  service_unavailable: { status: 503, code: "service_unavailable" },
  internal_error: { status: 500, code: "internal_error" },
};

/** A domain parameter as an ACP JSONPath into the request. */
export function acpParam(param: string | undefined): string | undefined {
  if (!param) return undefined;
  if (param.startsWith("$")) return param;
  const line = /^lines\[(\d+)\](?:\.(\w+))?$/.exec(param);
  if (line) return `$.line_items[${line[1]}]${line[2] === "listing_id" ? ".id" : line[2] ? `.${line[2]}` : ""}`;
  if (param === "email" || param === "buyer.email") return "$.buyer.email";
  if (param === "card_number" || param === "payment_method") return "$.payment_data.instrument.credential.token";
  if (param.startsWith("shipping_address")) return "$.fulfillment_details.address";
  return undefined;
}

export function acpError(err: AppError): { status: number; body: AcpErrorBody } {
  const mapped = ACP_CODES[err.code];
  const status = mapped?.status ?? err.status;
  const type = status === 503 ? "service_unavailable" : status >= 500 ? "processing_error" : "invalid_request";
  const param = acpParam(err.param);
  return {
    status,
    body: {
      type,
      code: mapped?.code ?? err.code,
      message: err.message,
      ...(param ? { param } : {}),
      ...(err.code === "acp_api_version_unsupported" ? { supported_versions: [ACP_VERSION] } : {}),
    },
  };
}
