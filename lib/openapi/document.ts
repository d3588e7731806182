import { OpenApiGeneratorV31, OpenAPIRegistry, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { ERROR_TABLE, ERROR_TYPES, type ErrorCode } from "@/lib/errors";
import { API_KEY_SCHEME } from "@/lib/http/access";
import type { Endpoint } from "@/lib/http/describe";
import { IDEMPOTENCY_HEADER } from "@/lib/http/policies/idempotency";
import { RejectedLine } from "@/lib/schemas/cart";
import { z } from "@/lib/schemas/zod";

/**
 * OpenAPI 3.1 documents built from endpoint descriptions (lib/http/describe.ts): the same
 * schemas that validate a request describe it here, and the error responses list every code an
 * operation can answer (its own, its access's, its input's), so the document cannot drift from
 * the routes.
 */

export interface OpenApiDocumentOptions {
  title: string;
  version: string;
  /** Markdown: authentication, limits, conventions. */
  description: string;
  /** The surface's base path, e.g. `/api/v1`. */
  serverUrl: string;
  tags: Array<{ name: string; description: string }>;
  /** The error envelope, registered as the `Error` component (see `errorEnvelope`). */
  errorEnvelope: z.ZodType;
  /** Security schemes besides the store API key's (registered as given: the OAuth scheme of the buyer API). */
  securitySchemes?: Record<string, SecuritySchemeObject>;
}

type SecuritySchemeObject = Parameters<OpenAPIRegistry["registerComponent"]>[2];

/** Codes every JSON body can answer: wrong content type, not JSON, too large, or a field problem. */
const BODY_ERRORS: ErrorCode[] = ["parameter_invalid", "parameter_missing", "body_invalid_json", "body_too_large", "content_type_invalid"];
/** A malformed key (400), the same key with another request (422), or its first use still running (409). */
const IDEMPOTENCY_ERRORS: ErrorCode[] = ["parameter_invalid", "idempotency_key_reused", "idempotency_key_in_use"];

/**
 * Every error code `endpoint` can answer, in error-table order: its own, its access's (key,
 * scope, rate limit), its input's (400/413/415 with a body, 400 with a query), its
 * Idempotency-Key's, and the 500 and 503 any operation may answer.
 */
export function errorCodesOf(endpoint: Endpoint): ErrorCode[] {
  const codes = new Set<ErrorCode>([...endpoint.errors, ...endpoint.access.errors, "internal_error", "service_unavailable"]);
  if (endpoint.body) for (const code of BODY_ERRORS) codes.add(code);
  if (endpoint.query) codes.add("parameter_invalid");
  if (endpoint.idempotent) for (const code of IDEMPOTENCY_ERRORS) codes.add(code);
  return (Object.keys(ERROR_TABLE) as ErrorCode[]).filter((code) => codes.has(code));
}

/**
 * Fields an error of some codes carries beside the envelope's own (an AppError's `extra`), each
 * with the codes that carry it.
 */
const ERROR_EXTRA_FIELDS: Record<string, { codes: readonly ErrorCode[]; schema: () => z.ZodType }> = {
  listing_id: {
    codes: ["insufficient_stock", "listing_unavailable"],
    schema: () => z.string().optional().openapi({ description: "`insufficient_stock`, `listing_unavailable`: the offer of the refused line." }),
  },
  total_cents: {
    codes: ["total_changed"],
    schema: () => z.number().int().optional().openapi({ description: "`total_changed`: the total now, in cents." }),
  },
  rejected: {
    codes: ["no_purchasable_lines"],
    schema: () => z.array(RejectedLine).optional().openapi({ description: "`no_purchasable_lines`: every line and why it was left out." }),
  },
};

/**
 * The error envelope whose `code` is one of `codes` (and `type` one of their types), with the
 * extra fields those codes carry.
 */
export function errorEnvelope(codes: readonly ErrorCode[]) {
  const extra = Object.fromEntries(
    Object.entries(ERROR_EXTRA_FIELDS)
      .filter(([, field]) => field.codes.some((code) => codes.includes(code)))
      .map(([name, field]) => [name, field.schema()]),
  );
  const types = ERROR_TYPES.filter((type) => codes.some((code) => ERROR_TABLE[code].type === type));
  return z
    .object({
      error: z
        .object({
          type: z.enum(types as [string, ...string[]]).openapi({ description: "Category of the error; one per HTTP status family." }),
          code: z.enum(codes as [ErrorCode, ...ErrorCode[]]).openapi({ description: "Stable snake_case reason; each operation's responses list the codes it can answer." }),
          message: z.string().openapi({ description: "Human-readable explanation; do not parse." }),
          param: z
            .string()
            .optional()
            .openapi({ description: "The offending input, as the client sent it (`limit`, `rates[0].min_days`, `Idempotency-Key`)." }),
          ...extra,
          request_id: z.string().openapi({ description: "Same value as the X-Request-Id header." }),
        })
        .strict(),
    })
    .strict()
    .openapi("Error");
}

/** Response headers, registered once as components and referenced by every response. */
const HEADERS = {
  RequestId: ["X-Request-Id", "The request's id; the same value as `meta.request_id` or `error.request_id`.", true],
  RateLimitLimit: ["X-RateLimit-Limit", "Capacity (burst) of the token bucket this request drew from.", true],
  RateLimitRemaining: ["X-RateLimit-Remaining", "Whole requests left in that bucket now.", true],
  RateLimitReset: ["X-RateLimit-Reset", "Unix time (seconds) when the bucket is full again.", true],
  RetryAfter: ["Retry-After", "Whole seconds to wait before retrying.", true],
  IdempotentReplayed: ["Idempotent-Replayed", "`true` when this is the stored answer to an earlier request with the same Idempotency-Key.", false],
  CacheControl: ["Cache-Control", "How long shared caches may keep the answer.", true],
  ETag: ["ETag", "Send it back in If-None-Match to revalidate for free (304).", true],
  CorrectedQuery: [
    "X-Corrected-Query",
    "Present when a misspelt word of `q` was corrected: the query actually run (words in their searchable form, the corrected ones replaced), percent-encoded UTF-8 (`encodeURIComponent`). Absent when no word was corrected.",
    false,
  ],
  QueryRelaxed: [
    "X-Query-Relaxed",
    "`true` when not every word of `q` had to match: a word matched no product and had no correction (filler such as \"cheap\", an unknown word), or no product contained every word, so products containing most of them (rarer words weigh more) are returned, ranked by how much of the query they cover. Absent otherwise.",
    false,
  ],
} as const satisfies Record<string, readonly [string, string, boolean]>;
type HeaderName = keyof typeof HEADERS;
type HeadersObject = Exclude<NonNullable<ResponseConfig["headers"]>, z.ZodObject>;

/** References to the header components of a response; `used` collects the components to register. */
function headersFor(used: Set<HeaderName>, endpoint: Endpoint, extra: HeaderName[] = []): HeadersObject {
  const names: HeaderName[] = ["RequestId", "RateLimitLimit", "RateLimitRemaining", "RateLimitReset"];
  if (endpoint.cache) names.push("CacheControl", "ETag");
  names.push(...extra);
  for (const name of names) used.add(name);
  return Object.fromEntries(names.map((name) => [HEADERS[name][0], { $ref: `#/components/headers/${name}` }]));
}

const STATUS_SUMMARY: Record<number, string> = {
  400: "Invalid request",
  401: "Not authenticated",
  403: "Not allowed",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Body too large",
  415: "Unsupported content type",
  422: "Idempotency key reused",
  429: "Rate limit exceeded",
  500: "Internal error",
  503: "Service unavailable",
};

/** Error responses grouped by status; each description lists every code of that status. */
function errorResponses(used: Set<HeaderName>, endpoint: Endpoint, envelope: z.ZodType): Record<number, ResponseConfig> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(endpoint)) {
    const status = ERROR_TABLE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, ResponseConfig> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const codes = byStatus.get(status)!;
    const lines = codes.map((code) => `- \`${code}\`: ${ERROR_TABLE[code].description}`);
    const retryAfter = codes.some((code) => code === "rate_limited" || code === "idempotency_key_in_use" || code === "service_unavailable");
    responses[status] = {
      description: `${STATUS_SUMMARY[status] ?? "Error"}. \`error.code\` is one of:\n${lines.join("\n")}`,
      headers: headersFor(used, endpoint, retryAfter ? ["RetryAfter"] : []),
      content: { "application/json": { schema: envelope } },
    };
  }
  return responses;
}

function lowerMethod(method: Endpoint["method"]) {
  return method.toLowerCase() as "get" | "post" | "patch" | "put" | "delete";
}

/** An OpenAPI 3.1 document of `endpoints`, described by their own schemas. */
export function buildOpenApiDocument(endpoints: readonly Endpoint[], options: OpenApiDocumentOptions) {
  const registry = new OpenAPIRegistry();
  registry.register("Error", options.errorEnvelope);
  const used = new Set<HeaderName>();
  if (endpoints.some((e) => e.access.security.some((requirement) => API_KEY_SCHEME in requirement))) {
    registry.registerComponent("securitySchemes", API_KEY_SCHEME, {
      type: "http",
      scheme: "bearer",
      bearerFormat: "mk_live_<key_id>.<secret>",
      description: "A store API key, sent as `Authorization: Bearer mk_live_<key_id>.<secret>`. Each operation lists the scope it needs.",
    });
  }
  for (const [name, scheme] of Object.entries(options.securitySchemes ?? {})) registry.registerComponent("securitySchemes", name, scheme);

  for (const endpoint of endpoints) {
    const optional: HeaderName[] = endpoint.success.headers ?? [];
    const successHeaders = headersFor(used, endpoint, [...(endpoint.idempotent ? (["IdempotentReplayed"] as const) : []), ...optional]);
    const responses: Record<number, ResponseConfig> = {
      [endpoint.success.status]: {
        description: endpoint.success.description,
        headers: successHeaders,
        content: { "application/json": { schema: endpoint.success.schema } },
      },
    };
    if (endpoint.cache) {
      responses[304] = { description: "Not modified (If-None-Match matched the ETag).", headers: headersFor(used, endpoint, optional) };
    }
    Object.assign(responses, errorResponses(used, endpoint, options.errorEnvelope));

    registry.registerPath({
      method: lowerMethod(endpoint.method),
      path: endpoint.path,
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      description: describeOperation(endpoint),
      tags: endpoint.tags,
      security: endpoint.access.security,
      request: {
        params: endpoint.params as z.ZodObject | undefined,
        query: endpoint.query as z.ZodObject | undefined,
        headers: endpoint.idempotent
          ? z.object({
              [IDEMPOTENCY_HEADER]: z
                .string()
                .min(1)
                .max(255)
                .optional()
                .openapi({
                  description:
                    "1 to 255 printable ASCII characters, unique per change. A retry with the same key and body within 24 hours replays the first answer (`Idempotent-Replayed: true`); the same key with another body or path is 422; a retry while the first runs is 409.",
                  example: "9f1c2b7e-create-template-standard",
                }),
            })
          : undefined,
        body: endpoint.body ? { required: true, content: { "application/json": { schema: endpoint.body } } } : undefined,
      },
      responses,
    });
  }

  for (const name of Object.keys(HEADERS) as HeaderName[]) {
    if (!used.has(name)) continue;
    const [, description, required] = HEADERS[name];
    registry.registerComponent("headers", name, { description, required, schema: { type: "string" } });
  }

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: { title: options.title, version: options.version, description: options.description },
    servers: [{ url: options.serverUrl }],
    tags: options.tags,
  });
}

/** The operation's description, with the scope it needs spelled out for readers of the text. */
function describeOperation(endpoint: Endpoint): string | undefined {
  const scopes = endpoint.access.security.flatMap((requirement) => Object.values(requirement).flat());
  const needs = scopes.length > 0 ? `Needs the scope ${scopes.map((s) => `\`${s}\``).join(" and ")}.` : undefined;
  return [endpoint.description, needs].filter(Boolean).join(" ") || undefined;
}
