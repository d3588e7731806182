import type { z } from "zod";
import type { ErrorCode } from "@/lib/errors";
import type { Access } from "./access";
import type { CachePolicy } from "./cache-policies";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * One endpoint, described once: the route (lib/http/route.ts) builds its policies from this, and
 * the OpenAPI generator (lib/openapi/document.ts) its operation, so neither can drift.
 */
export interface Endpoint<P extends z.ZodType | undefined = z.ZodType | undefined, Q extends z.ZodType | undefined = z.ZodType | undefined, B extends z.ZodType | undefined = z.ZodType | undefined> {
  /** Log line `route` and per-endpoint rate-limit bucket: `seller.listings.create`. */
  name: string;
  method: HttpMethod;
  /** Path relative to the surface's server URL, OpenAPI style: `/listings/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  /** Path parameters (documented; each is a plain string, checked by the domain). */
  params?: P;
  query?: Q;
  body?: B;
  /** The handler writes in one transaction (with the idempotency record when the client sends a key). */
  transactional?: boolean;
  /**
   * Accepts Idempotency-Key. `true`: the handler writes in the request's transaction, with the
   * key's record (implies transactional). `"claim"`: the domain call runs its own transaction and
   * is itself idempotent by a token derived from the key (checkout), so the key is claimed before
   * and its answer stored after (lib/http/policies/idempotency.ts `claimedIdempotency`).
   */
  idempotent?: boolean | "claim";
  cache?: CachePolicy;
  success: {
    status: 200 | 201;
    description: string;
    schema: z.ZodType;
    /** Optional response headers of this operation beyond the common ones (lib/openapi/document.ts). */
    headers?: ("CorrectedQuery" | "QueryRelaxed")[];
  };
  /** Errors the operation itself can answer, besides those of its access and its input. */
  errors: ErrorCode[];
}

export function defineEndpoint<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  endpoint: Endpoint<P, Q, B>,
): Endpoint<P, Q, B> {
  return endpoint;
}
