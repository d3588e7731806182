import { config } from "@/lib/config";

const DAY_SECONDS = 86_400;

/**
 * Rate-limit buckets (service-spec section 8, decisions.md): the ONE place the values live.
 * Each is a token bucket: `capacity` requests in a burst, then `refillPerSecond` steady, refilled
 * continuously (one token every 1000 / refillPerSecond ms, not in whole-second steps).
 */
export const RATE_LIMITS = {
  catalog: { capacity: 30, refillPerSecond: 5 }, // each catalog endpoint (search, product, categories, ...)
  images: { capacity: 120, refillPerSecond: 30 }, // generated product images: a page shows dozens at once
  cart_links: { capacity: 10, refillPerSecond: 1 }, // POST /cart-links
  mcp: { capacity: 30, refillPerSecond: 5 }, // public MCP endpoint
  seller: { capacity: 60, refillPerSecond: 10 }, // seller API, one bucket per API key across its routes
  buyer: { capacity: 60, refillPerSecond: 10 }, // buyer API and agent MCP, one bucket per OAuth grant
  protocol: { capacity: 60, refillPerSecond: 10 }, // each commerce protocol's REST binding (UCP, ACP), per client IP across its routes
  auth_failure: { capacity: 30, refillPerSecond: 5 }, // failed authentications, per client IP
  form: { capacity: 30, refillPerSecond: 5 }, // HTML form posts (cart, account, dashboard), per client IP
  sign_in: { capacity: 10, refillPerSecond: 1 }, // password and sign-in-link attempts, per client IP
  /** Failed password sign-ins per account, from any address (SIGN_IN_ACCOUNT_FAILURES, SIGN_IN_BACKOFF_SECONDS). */
  get sign_in_account() {
    const { signInAccountFailures, signInBackoffSeconds } = config();
    return { capacity: signInAccountFailures, refillPerSecond: 1 / signInBackoffSeconds };
  },
  oauth_register: { capacity: 10, refillPerSecond: 10 / 3600 }, // OAuth client registration (RFC 7591): 10 an hour per client IP
  oauth_token: { capacity: 30, refillPerSecond: 5 }, // OAuth token and revocation endpoints, per client IP
  /** Exact stock comparisons on cart links, per listing whoever asks (STOCK_PROBE_BUDGET, read when first used). */
  get stock_probe() {
    const budget = config().stockProbeBudget;
    return { capacity: budget, refillPerSecond: budget / DAY_SECONDS };
  },
} as const;

export type RateLimitPolicy = keyof typeof RATE_LIMITS;
