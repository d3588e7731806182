import { AppError, type ErrorCode } from "@/lib/errors";
import type { Requirement } from "@/lib/checkout";
import type { UcpMessage } from "./shapes";

/**
 * UCP's answers to what goes wrong. The REST binding's error structure is
 * `{ status, messages: [{ type: "error", code, content, severity, path? }] }`
 * (checkout-rest.md "Error Responses"); each answer here also carries `code` (the first
 * message's) and `detail` (its sentence) at the top, which generated clients and the UCP
 * conformance suite read. Statuses follow the binding's table: 400 for what the request got
 * wrong, 402 a declined payment, 404 an unknown checkout or order, 409 a checkout that can no
 * longer change or an idempotency key reused with another body, 429, 503.
 */

export interface UcpErrorBody {
  status: "error";
  code: string;
  detail: string;
  messages: UcpMessage[];
}

const UCP_CODES: Partial<Record<ErrorCode, { status: number; code: string }>> = {
  parameter_invalid: { status: 400, code: "invalid" },
  parameter_missing: { status: 400, code: "missing" },
  body_invalid_json: { status: 400, code: "invalid" },
  body_too_large: { status: 413, code: "invalid" },
  content_type_invalid: { status: 415, code: "invalid" },
  ucp_version_unsupported: { status: 400, code: "version_unsupported" },
  cart_empty: { status: 400, code: "missing" },
  insufficient_stock: { status: 409, code: "out_of_stock" },
  listing_unavailable: { status: 409, code: "item_unavailable" },
  shipping_address_missing: { status: 400, code: "missing" },
  payment_method_missing: { status: 400, code: "missing" },
  payment_declined: { status: 402, code: "payment_declined" },
  checkout_session_not_found: { status: 404, code: "not_found" },
  order_not_found: { status: 404, code: "not_found" },
  route_not_found: { status: 404, code: "not_found" },
  checkout_session_closed: { status: 409, code: "checkout_not_modifiable" },
  idempotency_key_reused: { status: 409, code: "idempotency_conflict" },
  idempotency_key_in_use: { status: 409, code: "idempotency_in_progress" },
};

/** A domain parameter as a UCP path into the request or the checkout. */
export function ucpPath(param: string | undefined): string | undefined {
  if (param === undefined || param === "") return undefined;
  if (param.startsWith("$")) return param;
  const line = /^lines\[(\d+)\](?:\.(\w+))?$/.exec(param);
  if (line) return `$.line_items[${line[1]}]${line[2] === "quantity" ? ".quantity" : line[2] === "listing_id" ? ".item.id" : ""}`;
  if (param === "email" || param === "buyer.email") return "$.buyer.email";
  if (param === "card_number" || param === "payment_method") return "$.payment_data.credential";
  if (param === "shipping_address" || param.startsWith("shipping_address.")) return "$.fulfillment.methods[0].selected_destination_id";
  if (param === "UCP-Agent" || param === "Idempotency-Key") return undefined;
  // A field of the request body as the body check names it (`fulfillment.methods[0].type`).
  const root = /^[a-z_]+/.exec(param)?.[0];
  if (root && REQUEST_FIELDS.has(root)) return `$.${param}`;
  return undefined;
}

/** The top-level fields of UCP's checkout requests (create, update, complete). */
const REQUEST_FIELDS = new Set(["id", "line_items", "currency", "buyer", "payment", "fulfillment", "payment_data", "risk_signals"]);

/** A domain requirement as a UCP message (an agent's limits need the holder: buyer input). */
export function messageOf(requirement: Requirement): UcpMessage {
  const path = ucpPath(requirement.path);
  return {
    type: "error",
    code: UCP_CODES[requirement.code]?.code ?? requirement.code,
    content: requirement.message,
    severity: requirement.severity === "unrecoverable" ? "requires_buyer_review" : requirement.severity,
    ...(path ? { path } : {}),
  };
}

/** An AppError carrying every message of a refusal (a create naming each bad line). */
export function refusal(status: 400 | 409, messages: UcpMessage[]): AppError {
  return new AppError(status === 400 ? "parameter_invalid" : "insufficient_stock", messages[0]!.content, messages[0]!.path, { extra: { ucp: { status, messages } } });
}

/** The status and body of anything an AppError says, in UCP's terms. */
export function ucpError(err: AppError): { status: number; body: UcpErrorBody } {
  const carried = err.extra?.ucp as { status: number; messages: UcpMessage[] } | undefined;
  if (carried) {
    return { status: carried.status, body: { status: "error", code: carried.messages[0]!.code, detail: carried.messages[0]!.content, messages: carried.messages } };
  }
  const mapped = UCP_CODES[err.code];
  // What has no UCP code of its own keeps ours (an agent's limits: `per_order_limit_exceeded`,
  // the same code the agent MCP answers), with our status.
  const status = mapped?.status ?? err.status;
  const code = mapped?.code ?? err.code;
  const path = ucpPath(err.param);
  const severity = status === 403 ? "requires_buyer_input" : "recoverable";
  return { status, body: { status: "error", code, detail: err.message, messages: [{ type: "error", code, content: err.message, severity, ...(path ? { path } : {}) }] } };
}
