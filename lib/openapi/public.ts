import { OpenApiGeneratorV31, OpenAPIRegistry, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { CategoriesResponse, ProductPath, ProductResponse, SearchQuery, SearchResponse } from "@/lib/schemas/catalog";
import { CartLinkRequest, CartLinkResponse } from "@/lib/schemas/cart";
import { RATE_LIMITS } from "@/lib/ratelimit/config";
import { ErrorEnvelope } from "@/lib/schemas/errors";
import { z } from "@/lib/schemas/zod";

const requestIdHeader = z.string().openapi({ description: "Same value as meta.request_id / error.request_id." });
// Every response carries the caller's bucket state (one token bucket per endpoint and client IP).
const rateLimitHeaders = {
  "X-RateLimit-Limit": z.string().openapi({ description: "Bucket capacity (burst) of this endpoint, e.g. `30`." }),
  "X-RateLimit-Remaining": z.string().openapi({ description: "Whole requests left in the bucket now." }),
  "X-RateLimit-Reset": z.string().openapi({ description: "Unix time (seconds) when the bucket is full again." }),
};
const baseHeaders = { "X-Request-Id": requestIdHeader };
const cacheHeaders = {
  ...baseHeaders,
  "Cache-Control": z.string().openapi({ description: "Shared-cacheable: `public, s-maxage=60` (categories and this document: 300)." }),
  ETag: z.string().openapi({ description: "Send it back in If-None-Match to revalidate for free (304)." }),
};

function json(description: string, schema: z.ZodType, headers: Record<string, z.ZodType> = baseHeaders): ResponseConfig {
  return { description, headers: z.object({ ...headers, ...rateLimitHeaders }), content: { "application/json": { schema } } };
}

const errors = {
  400: json("Invalid request; `error.param` names the parameter.", ErrorEnvelope),
  429: json("Rate limit exceeded; retry after `Retry-After` seconds.", ErrorEnvelope, {
    ...baseHeaders,
    "Retry-After": z.string().openapi({ description: "Whole seconds until a request is allowed again." }),
  }),
  500: json("Internal error; the body never carries internals.", ErrorEnvelope),
};
const notModified = { description: "Not modified (If-None-Match matched the ETag).", headers: z.object({ ...cacheHeaders, ...rateLimitHeaders }) };

function buildDocument() {
  const registry = new OpenAPIRegistry();
  registry.register("Error", ErrorEnvelope);

  registry.registerPath({
    method: "get",
    path: "/search",
    operationId: "searchProducts",
    summary: "Search the catalog",
    description:
      "Full-text and faceted search over purchasable offers; the same ranking, filters and facet counts as the storefront search page. Offer-level filters (condition, price) match products that have one purchasable offer satisfying all of them; the card's min_price_cents and offer_count are computed over those offers.",
    tags: ["Catalog"],
    request: { query: SearchQuery },
    responses: {
      200: json("Product cards and search meta.", SearchResponse, cacheHeaders),
      304: notModified,
      ...errors,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/products/{slug}",
    operationId: "getProduct",
    summary: "Retrieve a product with its offers and buy box",
    tags: ["Catalog"],
    request: { params: ProductPath },
    responses: {
      200: json("The product record.", ProductResponse, cacheHeaders),
      304: notModified,
      404: json("No publicly listed product has this slug.", ErrorEnvelope),
      429: errors[429],
      500: errors[500],
    },
  });

  registry.registerPath({
    method: "get",
    path: "/categories",
    operationId: "getCategories",
    summary: "The active category tree",
    tags: ["Catalog"],
    responses: {
      200: json("Every active category as a nested tree.", CategoriesResponse, cacheHeaders),
      304: notModified,
      429: errors[429],
      500: errors[500],
    },
  });

  registry.registerPath({
    method: "post",
    path: "/cart-links",
    operationId: "createCartLink",
    summary: "Create a cart link for a human to open",
    description:
      "Turns offers (listing ids from GET /products/{slug}) into a link that a person opens to fill their own cart. It places no order, reserves no stock and creates no cart until a person opens it; price and availability are checked again at that moment, so there is no price guarantee. Repeated listing ids are summed. Lines that cannot be bought now are left out and listed in `rejected` with a generic reason. The link expires after 7 days. Responses are never cached.",
    tags: ["Cart links"],
    request: { body: { required: true, content: { "application/json": { schema: CartLinkRequest } } } },
    responses: {
      200: json("At least one line was accepted.", CartLinkResponse, {
        ...baseHeaders,
        "Cache-Control": z.string().openapi({ description: "Always `no-store`." }),
      }),
      400: json(
        "Invalid body (`error.param` names the field, e.g. `items[2].quantity`), or no line is purchasable (`code: no_purchasable_lines`, with `error.rejected`).",
        ErrorEnvelope,
      ),
      413: json("The body is larger than 1 MiB.", ErrorEnvelope),
      415: json("The body is not sent as `application/json`.", ErrorEnvelope),
      429: errors[429],
      500: errors[500],
    },
  });

  registry.registerPath({
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This document",
    tags: ["Meta"],
    responses: {
      200: {
        description: "The OpenAPI 3.1 description of the public API.",
        headers: z.object({ ...cacheHeaders, ...rateLimitHeaders }),
        content: { "application/json": { schema: z.object({}).passthrough() } },
      },
      304: notModified,
      429: errors[429],
    },
  });

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Marketplace public catalog API",
      version: "1.0.0",
      description:
        `Unauthenticated view of the marketplace catalog, exactly what a logged-out visitor sees on the storefront, plus cart links that hand offers to a person. Money is integer cents (USD). Inventory depth is never exposed; offers carry only \`in_stock\`. Send a descriptive User-Agent, reuse cacheable responses (ETag / If-None-Match) and honour Retry-After. Rate limits are token buckets per endpoint and client IP (first hop of X-Forwarded-For): each catalog endpoint ${RATE_LIMITS.catalog.capacity} requests at once, refilled at ${RATE_LIMITS.catalog.refillPerSecond} per second; POST /cart-links ${RATE_LIMITS.cart_links.capacity}, refilled at ${RATE_LIMITS.cart_links.refillPerSecond} per second. Every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset; a 429 adds Retry-After. These are current operating values, not a guarantee. Errors use one envelope: \`{ error: { type, code, message, param?, request_id } }\`. On POST /cart-links with no purchasable line the error also carries \`rejected\`.`,
    },
    servers: [{ url: "/api/public/v1" }],
    // Deliberately public: no account, no key.
    security: [],
    tags: [
      { name: "Catalog", description: "What a logged-out visitor sees: search, products with offers, categories." },
      { name: "Cart links", description: "Links that hand a chosen set of offers to a person, who opens them to fill their own cart." },
      { name: "Meta", description: "This description of the API." },
    ],
  });
}

let cached: ReturnType<typeof buildDocument> | undefined;

export function publicOpenApiDocument() {
  cached ??= buildDocument();
  return cached;
}
