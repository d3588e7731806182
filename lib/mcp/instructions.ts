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

/** Instructions of the agent server: what it does for the holder, and the rules it keeps. */
export function agentInstructions(): string {
  const { capacity, refillPerSecond } = RATE_LIMITS.buyer;
  return `This is an online marketplace (${absoluteUrl("/")}), prices in USD, acting for ONE account holder who connected you with OAuth and granted you scopes on the consent page. The holder can revoke you at any time on ${absoluteUrl("/account/agents")}.

Catalog tools (no scope needed): search_products, get_categories, get_product (offers and their listing_ids), create_cart_link, search_help, get_help_article, get_connection_guide.

The holder's tools, each needing a scope: get_profile (profile:read); get_cart (cart:read); add_to_cart, update_cart_line, remove_cart_line (cart:write); checkout (checkout); list_orders, get_order (orders:read); request_return (returns:write); list_returns (returns:read). checkout implies cart:write, which implies cart:read; returns:write implies returns:read. A call whose scope your token lacks is refused with HTTP 403 and WWW-Authenticate: Bearer error="insufficient_scope", scope="..." naming the scopes to ask the holder for.

Buying: fill the cart (or pass lines to checkout for "buy now"), show your human the cart and its total, then call checkout with expected_total_cents and an idempotency_key (reuse the key on a retry: it never orders twice). It pays with the holder's default payment method and ships to their default address. Checkout is refused when the marketplace or the holder has not allowed agents to order, or when the total is above the holder's per-order limit or what is left of their monthly limit: tell your human, who changes these settings on ${absoluteUrl("/account/agents")}; never try to get around them.

Conventions: money is integer cents; stock is only in_stock / purchasable. Structured results equal the buyer API (${absoluteUrl("/api/v1/buyer")}): { data, meta } and lists { data, next_cursor, meta }. A bad argument gives a tool error carrying { error: { type, code, message, param, request_id } }. Your grant may send a burst of ${capacity} requests, then ${refillPerSecond} per second (shared with the buyer API); over that the HTTP answer is 429 with Retry-After.`;
}
