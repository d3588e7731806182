import { PUBLIC_ENDPOINTS } from "@/lib/endpoints/public";
import { RATE_LIMITS } from "@/lib/ratelimit/config";
import { ErrorEnvelope } from "@/lib/schemas/errors";
import { buildOpenApiDocument } from "./document";

const DESCRIPTION = `Unauthenticated view of the marketplace catalog, exactly what a logged-out visitor sees on the storefront, plus cart links that hand offers to a person. Money is integer cents (USD). Inventory depth is never exposed; offers carry only \`in_stock\`. Send a descriptive User-Agent, reuse cacheable responses (ETag / If-None-Match) and honour Retry-After. Rate limits are token buckets per endpoint and client IP (first hop of X-Forwarded-For): each catalog endpoint ${RATE_LIMITS.catalog.capacity} requests at once, refilled at ${RATE_LIMITS.catalog.refillPerSecond} per second; POST /cart-links ${RATE_LIMITS.cart_links.capacity}, refilled at ${RATE_LIMITS.cart_links.refillPerSecond} per second. Every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset; a 429 adds Retry-After. These are current operating values, not a guarantee. Errors use one envelope: \`{ error: { type, code, message, param?, request_id } }\`. On POST /cart-links with no purchasable line the error also carries \`rejected\`.`;

function buildDocument() {
  return buildOpenApiDocument(PUBLIC_ENDPOINTS, {
    title: "Marketplace public catalog API",
    version: "1.0.0",
    description: DESCRIPTION,
    serverUrl: "/api/public/v1",
    tags: [
      { name: "Catalog", description: "What a logged-out visitor sees: search, products with offers, categories." },
      { name: "Cart links", description: "Links that hand a chosen set of offers to a person, who opens them to fill their own cart." },
      { name: "Meta", description: "This description of the API." },
    ],
    errorEnvelope: ErrorEnvelope,
  });
}

let cached: ReturnType<typeof buildDocument> | undefined;

/** The public API's OpenAPI 3.1 document (built once per process), from the routes' own descriptions. */
export function publicOpenApiDocument() {
  cached ??= buildDocument();
  return cached;
}
