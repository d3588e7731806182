import { formatCents } from "@/lib/catalog/money";
import type { QueryInterpretation, SearchResult } from "@/lib/catalog/search";
import type { CartLinkResultData } from "@/lib/schemas/cart";
import type { CategoryNodeData, ProductRecordData } from "@/lib/schemas/catalog";
import type { HelpArticleData, HelpArticleSummaryData } from "@/lib/schemas/help";
import type { BuyerUserData, CartData, CheckoutSummaryData } from "@/lib/schemas/buyer";
import type { ConnectionGuideData } from "@/lib/schemas/mcp";
import type { OrderData, ReturnData } from "@/lib/schemas/orders";

/*
 * The short text rendering that goes with each tool's structured result, for clients that show
 * the model only text: enough to take the next step (slugs, listing ids, the next page), with
 * the complete JSON in structuredContent.
 */

const price = (cents: number | null) => (cents === null ? "no price" : formatCents(cents));

/** How the query was read, in words (the API says it in X-Corrected-Query and X-Query-Relaxed). */
export function interpretationNotes({ corrected, relaxed }: QueryInterpretation): string[] {
  return [
    ...(corrected === null ? [] : [`Showing results for "${corrected}" (a misspelt word was corrected).`]),
    ...(relaxed ? ["Not every word of the query matched: these products contain most of the words, the best matches first."] : []),
  ];
}

export function searchText({ data, meta }: Pick<SearchResult, "data" | "meta">): string {
  const lines = [
    meta.total === 0
      ? "No products match."
      : `${meta.total} products match; page ${meta.page} of ${meta.page_count} (${meta.page_size} per page).`,
    ...data.map(
      (card, i) =>
        `${(meta.page - 1) * meta.page_size + i + 1}. ${card.title} | from ${price(card.min_price_cents)}, ${card.offer_count} offer(s) | slug: ${card.slug}`,
    ),
  ];
  const facets = (["category", "brand", "condition", "price"] as const)
    .filter((name) => meta.facets[name].length > 0)
    .map((name) => `${name}: ${meta.facets[name].map((f) => `${f.value} (${f.count})`).join(", ")}`);
  if (facets.length > 0) lines.push(`Filters (value and count): ${facets.join("; ")}.`);
  if (meta.page < meta.page_count) lines.push(`More: call search_products again with page=${meta.page + 1}.`);
  if (data.length > 0) lines.push("Call get_product with a slug for its offers and listing ids.");
  return lines.join("\n");
}

export function productText(product: ProductRecordData): string {
  const lines = [
    `${product.title}${product.brand ? ` by ${product.brand.name}` : ""} | slug: ${product.slug} | ${product.url}`,
    product.category_breadcrumb.length ? `Category: ${product.category_breadcrumb.map((c) => c.name).join(" > ")}` : "",
    product.offers.length === 0 ? "No purchasable offers right now." : `Offers, cheapest first (lowest ${price(product.min_price_cents)}):`,
    ...product.offers.map(
      (o) =>
        `- listing_id ${o.listing_id}: ${formatCents(o.price_cents)}${o.on_sale ? ` (was ${formatCents(o.list_price_cents)})` : ""}, ${o.condition_label}, sold by ${o.store_name}, ${o.in_stock ? "in stock" : "backorder"}${o.listing_id === product.buy_box_listing_id ? " [buy box]" : ""}`,
    ),
    product.offers.length ? "To buy, call create_cart_link with { items: [{ listing_id, quantity }] } and give the link to the person." : "",
  ];
  return lines.filter(Boolean).join("\n");
}

export function categoriesText(tree: CategoryNodeData[], count: number): string {
  const lines = [`${count} categories (slug: name); use a slug as search_products' category.`];
  const walk = (nodes: CategoryNodeData[], depth: number) => {
    for (const node of nodes) {
      lines.push(`${"  ".repeat(depth)}- ${node.slug}: ${node.name}`);
      walk(node.children, depth + 1);
    }
  };
  walk(tree, 0);
  return lines.join("\n");
}

export function cartLinkText(link: CartLinkResultData): string {
  return [
    `Cart link for the person to open (expires ${link.expires_at}): ${link.url}`,
    `${link.accepted} line(s) accepted${link.rejected.length ? `; left out: ${link.rejected.map((r) => `${r.listing_id} (${r.reason})`).join(", ")}` : ""}.`,
    "Opening it fills that person's own cart, where they review and pay. It places no order and reserves no stock; price and availability are checked again when it is opened.",
  ].join("\n");
}

export function helpSearchText(articles: HelpArticleSummaryData[]): string {
  if (articles.length === 0) return "No help article matches. Call search_help without q to list them all.";
  return [
    `${articles.length} help article(s):`,
    ...articles.map((a) => `- ${a.title} (slug: ${a.slug}): ${a.summary} ${a.url}`),
    "Call get_help_article with a slug for its text.",
  ].join("\n");
}

export function helpArticleText(article: HelpArticleData): string {
  return `${article.url}\n\n${article.body}`;
}

export function connectionGuideText(guide: ConnectionGuideData): string {
  return [
    `MCP server: ${guide.server_url} (streamable HTTP, POST only, stateless, no authentication)`,
    ...guide.clients.map((c) => `\n## ${c.name}\n${c.steps}\n\n${c.snippet}`),
    "\n## Rules",
    ...guide.notes.map((note) => `- ${note}`),
    `\n## Acting for an account holder\n${guide.agent_server.summary}\nServer: ${guide.agent_server.server_url} (OAuth; authorization server metadata ${guide.agent_server.authorization_server_metadata_url}, protected resource metadata ${guide.agent_server.protected_resource_metadata_url}). Buyer API: ${guide.agent_server.buyer_api_url}.`,
    `\nMore: ${guide.docs_url}`,
  ].join("\n");
}

// The agent server's tools (the buyer API's bodies).

export function profileText(user: BuyerUserData): string {
  return `Acting for ${user.name ?? "(no name)"} <${user.email}> (user ${user.id}).`;
}

export function cartText(cart: CartData): string {
  if (cart.lines.length === 0) return "The cart is empty. Add offers with add_to_cart { listing_id, quantity }.";
  return [
    `Cart: ${cart.lines.length} line(s), subtotal ${formatCents(cart.subtotal_cents)} (purchasable lines; shipping is added at checkout).`,
    ...cart.lines.map(
      (l) =>
        `- listing_id ${l.listing_id}: ${l.title ?? "(no longer listed)"} from ${l.store_slug}, ${l.quantity} × ${formatCents(l.unit_price_cents)} = ${formatCents(l.line_total_cents)}${l.purchasable ? (l.in_stock ? "" : " (backorder)") : " [cannot be bought now]"}`,
    ),
  ].join("\n");
}

export function checkoutSummaryText(summary: CheckoutSummaryData): string {
  const a = summary.agent_orders;
  const limits = a.enabled
    ? `Agent limits: ${formatCents(a.per_order_limit_cents ?? 0)} an order, ${formatCents(a.left_this_month_cents ?? 0)} of ${formatCents(a.monthly_limit_cents ?? 0)} left this month.`
    : "The holder has not let agents place orders.";
  return [
    `Checking out the cart now: ${formatCents(summary.subtotal_cents)} + shipping to ${summary.country} ${formatCents(summary.shipping_cents)} = ${formatCents(summary.total_cents)}.`,
    ...summary.stores.map((s) => `- ${s.store_name} (${s.store_slug}): ${s.line_count} line(s), ${formatCents(s.subtotal_cents)}, shipping ${formatCents(s.shipping_cents)}`),
    limits,
  ].join("\n");
}

export function orderText(order: OrderData): string {
  return [
    `Order ${order.number} (id ${order.id}): ${order.status}, placed via ${order.placed_via}, total ${formatCents(order.total_cents)} (shipping ${formatCents(order.shipping_cents)}).`,
    ...order.lines.map((l) => `- line ${l.id}: ${l.title} from ${l.store_slug}, ${l.quantity} × ${formatCents(l.unit_price_cents)}`),
  ].join("\n");
}

export function ordersText(orders: OrderData[], nextCursor: string | null): string {
  if (orders.length === 0) return "No orders.";
  return [
    ...orders.map((o) => `- ${o.number} (id ${o.id}): ${o.status}, ${formatCents(o.total_cents)}, ${o.created_at}`),
    nextCursor ? `More: call again with cursor=${nextCursor}.` : "",
  ]
    .filter(Boolean)
    .join("\n");
}

export function returnText(ret: ReturnData): string {
  return `Return ${ret.id} of order ${ret.order_id}: ${ret.status}, ${ret.lines.map((l) => `${l.quantity} of line ${l.order_line_id} (${l.reason})`).join(", ")}.`;
}

export function returnsText(returns: ReturnData[], nextCursor: string | null): string {
  if (returns.length === 0) return "No returns.";
  return [...returns.map(returnText), nextCursor ? `More: call again with cursor=${nextCursor}.` : ""].filter(Boolean).join("\n");
}
