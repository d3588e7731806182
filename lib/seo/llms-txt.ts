import { absoluteUrl } from "@/lib/config";
import type { DbClient } from "@/lib/db";
import { AGENT_SURFACE } from "@/lib/mcp/agent";
import { AUTHORIZATION_SERVER_METADATA_PATH } from "@/lib/mcp/connection-guide";
import { PUBLIC_SURFACE } from "@/lib/mcp/server";
import { serverCardPath } from "@/lib/mcp/server-card";
import { RESOURCES, resourceMetadataUrl } from "@/lib/oauth/resources";
import { RATE_LIMITS } from "@/lib/ratelimit/config";

/**
 * /llms.txt (llmstxt.org): an H1, a one-line summary, then sections of Markdown links that tell
 * an agent where the public API, its OpenAPI document and the MCP endpoint are, the rules it is
 * expected to follow, and the help articles (read from the database, as /help shows them).
 */
export async function llmsTxt(client: DbClient): Promise<string> {
  const articles = await client.$queryRaw<{ slug: string; title: string; summary: string }[]>`
    SELECT slug, title, summary FROM help_articles WHERE published ORDER BY position, slug`;

  const api = absoluteUrl("/api/public/v1");
  const openapi = absoluteUrl("/api/public/v1/openapi.json");
  const mcp = absoluteUrl("/api/mcp/mcp");
  const agentMcp = absoluteUrl(RESOURCES.agent_mcp.path);
  const buyerApi = absoluteUrl(RESOURCES.buyer_api.path);
  const { catalog, cart_links: cartLinks, mcp: mcpLimit } = RATE_LIMITS;

  return `# Marketplace

> An online marketplace for people and agents. Its public catalog (publicly listed products, public prices, purchasable offers and the category tree) is open without an account or key, read-only, as a JSON API and as an MCP server, and shows exactly what a logged-out visitor sees on the storefront.

Money is always integer cents (\`*_cents\`, USD). Stock is only a boolean \`in_stock\` per offer. A product is addressed by its slug, the same slug as its page ${absoluteUrl("/p/{slug}")}; an offer by its \`listing_id\`.

## Public API

- [Public catalog API](${api}): JSON over HTTP, no account, no key. \`GET /search\` (full-text search with facets), \`GET /products/{slug}\` (product with purchasable offers and buy box), \`GET /categories\` (category tree), \`POST /cart-links\`. Success responses are \`{ data, meta }\`; errors are \`{ error: { type, code, message, param?, request_id } }\`.
- [OpenAPI document](${openapi}): OpenAPI 3.1 description of every endpoint, parameter and response of the public API.

## MCP

- [MCP endpoint](${mcp}): streamable HTTP transport, POST only, stateless (no session id, a GET is answered with 405), no authentication. Tools: \`search_products\`, \`get_product\`, \`get_categories\`, \`create_cart_link\`, \`search_help\`, \`get_help_article\`, \`get_connection_guide\`.
- [Server card](${absoluteUrl(serverCardPath(PUBLIC_SURFACE))}): this server's MCP Server Card (name, version, transport URL, protocol versions), read before connecting. Every server's card is listed in the [AI Catalog](${absoluteUrl("/.well-known/ai-catalog.json")}).

## Buying

- Cart links: \`POST /cart-links\` (or the \`create_cart_link\` tool) takes offers by \`listing_id\` and returns a URL for a human to open in their own browser; it prefills that person's cart and expires after 7 days. Price and availability are checked again when the link is opened.
- The public API and the MCP endpoint above place no order, take no payment, reserve no stock and create no cart on the service side. Checkout is done by the human, by an agent the human connected with OAuth and allowed to order (below), or by a commerce platform through UCP or ACP (below), which gives the buyer's e-mail, address and card as a person does at checkout.

## Commerce protocols

- [UCP business profile](${absoluteUrl("/.well-known/ucp")}): the Universal Commerce Protocol 2026-01-11; checkout sessions and orders at ${absoluteUrl("/api/ucp")}, identity linking through the OAuth server below.
- [ACP discovery](${absoluteUrl("/.well-known/acp.json")}): the Agentic Commerce Protocol 2026-04-17; checkout sessions at ${absoluteUrl("/api/acp")}.
- In both, one checkout may hold several stores' items; completing it charges once and places one order per store.

## Agents acting for an account holder

- [Agent MCP endpoint](${agentMcp}): streamable HTTP, POST only, stateless, authenticated with OAuth 2.1. The public catalog tools plus the holder's: \`get_profile\`, \`get_cart\`, \`add_to_cart\`, \`update_cart_line\`, \`remove_cart_line\`, \`checkout\`, \`list_orders\`, \`get_order\`, \`request_return\`, \`list_returns\`.
- [Agent server card](${absoluteUrl(serverCardPath(AGENT_SURFACE))}): its MCP Server Card, naming the Authorization header and the protected resource metadata below.
- [Buyer API](${buyerApi}): the same operations as JSON over HTTP ([OpenAPI document](${buyerApi}/openapi.json)), with tokens issued for it.
- OAuth: [authorization server metadata](${absoluteUrl(AUTHORIZATION_SERVER_METADATA_PATH)}) (RFC 8414); protected resource metadata (RFC 9728) at [${resourceMetadataUrl("agent_mcp")}](${resourceMetadataUrl("agent_mcp")}) and [${resourceMetadataUrl("buyer_api")}](${resourceMetadataUrl("buyer_api")}). Authorization code flow with PKCE (S256) and the \`resource\` parameter; a request without a token answers 401 with \`WWW-Authenticate\` pointing at the metadata.
- The account holder signs in and grants each scope (\`profile:read\`, \`cart:read\`, \`cart:write\`, \`orders:read\`, \`returns:read\`, \`returns:write\`, \`checkout\`) on the consent page, and can revoke an agent at any time on [${absoluteUrl("/account/agents")}](${absoluteUrl("/account/agents")}), where they also decide whether agents may place orders and set per-order and monthly limits.

## Rules for clients

- Rate limits are per client IP and per endpoint (token buckets): search, product and categories each allow a burst of ${catalog.capacity} requests, then ${catalog.refillPerSecond} per second; the MCP endpoint ${mcpLimit.capacity}, then ${mcpLimit.refillPerSecond} per second; \`POST /cart-links\` allows ${cartLinks.capacity}, then ${cartLinks.refillPerSecond} per second. Public API responses carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; a 429 carries \`Retry-After\` (seconds).
- Over the limit the answer is 429 with a \`Retry-After\` header (seconds): wait at least that long before retrying.
- Send a descriptive \`User-Agent\` naming your agent and a way to reach you (for example \`example-shopping-agent/1.2 (+https://agent.example.com)\`).
- Reuse cacheable responses: catalog reads carry \`Cache-Control\` and an \`ETag\`; revalidate with \`If-None-Match\` for a free 304.

## Help
${articles.map((a) => `\n- [${markdownText(a.title)}](${absoluteUrl(`/help/${encodeURIComponent(a.slug)}`)}): ${oneLine(a.summary)}`).join("")}

## Optional

- [Help centre](${absoluteUrl("/help")}): every help article.
- [Sitemap](${absoluteUrl("/sitemap.xml")}): every product, category and help page.
`;
}

/** Link text cannot contain an unbalanced bracket. */
function markdownText(text: string): string {
  return oneLine(text).replace(/([[\]\\])/g, "\\$1");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
