/**
 * Rate-limit buckets of the public API (service-spec section 8): the ONE place the values live.
 * Each is a token bucket: `capacity` requests in a burst, then `refillPerSecond` steady, refilled
 * continuously (one token every 1000 / refillPerSecond ms, not in whole-second steps).
 */
export const RATE_LIMITS = {
  catalog: { capacity: 30, refillPerSecond: 5 }, // each catalog endpoint (search, product, categories, ...)
  cart_links: { capacity: 10, refillPerSecond: 1 }, // POST /cart-links
  mcp: { capacity: 30, refillPerSecond: 5 }, // public MCP endpoint
} as const;

export type RateLimitPolicy = keyof typeof RATE_LIMITS;
