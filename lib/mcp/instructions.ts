import { absoluteUrl } from "@/lib/config";
import { RATE_LIMITS } from "@/lib/ratelimit/config";

/** Server instructions: what this marketplace is and how an agent is expected to use it. */
export function serverInstructions(): string {
  const { capacity, refillPerSecond } = RATE_LIMITS.mcp;
  return `This is the public catalog of an online marketplace (${absoluteUrl("/")}), prices in USD. It shows exactly what a signed-out visitor sees on the site: publicly listed products, public prices and the offers that can be bought now. No account or key is needed, and nothing here can place an order or take a payment.

Tools:
- search_products: full-text search (q) with filters (category, brand, condition, price_min_cents, price_max_cents) and facet counts that tell you which filter values exist. Results are paged: page 1-500, page_size up to 60 (default 24); meta.page_count is the number of pages.
- get_categories: the category tree; its slugs are search_products' category filter.
- get_product: one product by slug, with its purchasable offers (cheapest first) and the buy-box offer (buy_box_listing_id). An offer's listing_id identifies one seller's offer.
- create_cart_link: when the person wants to buy, turn chosen listing_ids and quantities into a link and give it to them. Opening it fills their own cart, where they review and pay themselves. It reserves no stock and prices are checked again when it is opened. Prefer this over sending people to product pages when they have decided.
- search_help, get_help_article: the help centre (shipping, returns, how search works, selling).
- get_connection_guide: how to connect MCP clients to this server.

Conventions: money is integer cents (price_cents 1999 is $19.99); stock is only in_stock true/false. Structured results equal the public JSON API (${absoluteUrl("/api/public/v1")}): { data, meta } with meta.request_id. A bad argument gives a tool error carrying { error: { type, code, message, param, request_id } }; fix the argument named by param and call again.

Be a good client: send a descriptive User-Agent naming your agent and a URL or address to reach you. Each client IP may send a burst of ${capacity} requests, then ${refillPerSecond} per second; over that the HTTP answer is 429 with Retry-After: wait that many seconds before retrying. Narrow a search with filters rather than paging through everything.`;
}
