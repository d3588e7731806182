import type { ToolAnnotations } from "@modelcontextprotocol/server";
import type { z } from "zod";
import { createCartLink } from "@/lib/cart/links";
import { getCategoryTree } from "@/lib/catalog/categories";
import { getProduct } from "@/lib/catalog/product";
import { searchProducts } from "@/lib/catalog/search";
import { cartLinksEndpoint, categoriesEndpoint, productEndpoint, searchEndpoint } from "@/lib/endpoints/public";
import { withCatalogReader } from "@/lib/http/database";
import { getHelpArticle, searchHelpArticles } from "@/lib/help/articles";
import { jsonSchemaOf } from "@/lib/openapi/json-schema";
import { CartLinkRequest, CartLinkResponse } from "@/lib/schemas/cart";
import { CategoriesResponse, ProductPath, ProductResponse, RequestMeta, SearchResponse } from "@/lib/schemas/catalog";
import { HelpArticle, HelpArticlePath, HelpArticleSummary, HelpSearchMeta, HelpSearchRequest } from "@/lib/schemas/help";
import { ConnectionGuide } from "@/lib/schemas/mcp";
import { z as zod } from "@/lib/schemas/zod";
import { bodyArguments, searchArguments, searchInputSchema } from "../arguments";
import { connectionGuide } from "../connection-guide";
import { advertisedInput, once, responseBody } from "../schemas";
import * as text from "../text";
import type { ToolDefinition } from "./types";
import { withDb } from "@/lib/http/database";

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
export const NoArguments = zod.object({}).strict();
export const noInput = once(() => jsonSchemaOf(NoArguments));
const productInput = once(() => jsonSchemaOf(ProductPath.strict()));
const cartLinkInput = once(() => jsonSchemaOf(CartLinkRequest));
const helpSearchInput = once(() => jsonSchemaOf(HelpSearchRequest));
const helpArticleInput = once(() => jsonSchemaOf(HelpArticlePath));

/** The public catalog tools (the public MCP server's, and the first of the agent MCP server's). */
export const PUBLIC_TOOLS: ToolDefinition[] = [
  {
    name: "search_products",
    view: "products",
    title: "Search products",
    description: `Search the marketplace catalog: products that can be bought now, ranked by relevance, with filters and facet counts. Use it to find products, then call get_product with a result's slug for its offers.
- q: words as a person would type them. Products with every word rank first; if none has them all, products with most of them come back (the text says so). Typos in longer words are corrected (the text says to what), the last word may be half typed, and -word excludes a word. Omit q to browse (for example one category).
- category: a category slug from get_categories (includes its subcategories). brand and condition: lists of values, matching any of them. price_min_cents / price_max_cents: whole cents, the maximum EXCLUSIVE, so the price facet value "2500-5000" is price_min_cents 2500 and price_max_cents 5000.
- meta.facets lists, per filter, the values that exist and how many products each would give with your other filters kept, so you can narrow step by step.
- Paging: page 1-500 (default 1) and page_size 1-60 (default 24; larger values are clamped to 60, see meta.page_size). meta.total is the number of matching products and meta.page_count the number of pages; a page past the last returns an empty list.
- sort: relevance (default), price_asc, price_desc (by the lowest matching offer), newest.
Prices are integer cents (USD). The result is exactly GET /api/public/v1/search with the same parameters.`,
    inputSchema: advertisedInput(searchInputSchema),
    outputSchema: responseBody(SearchResponse, searchEndpoint.errors, searchInputSchema),
    annotations: { title: "Search products", ...READ_ONLY },
    run: async (args) => {
      const { data, meta, interpretation } = await withCatalogReader((client) => searchProducts(client, searchArguments(args)));
      return { data, meta, notes: text.interpretationNotes(interpretation) };
    },
    text: (result) => text.searchText(result as z.output<typeof SearchResponse>),
  },
  {
    name: "get_product",
    view: "products",
    title: "Get a product with its offers",
    description: `One product by slug (from search results, or the last part of a /p/{slug} page URL): description, images, attributes, and every offer that can be bought now, cheapest first. Each offer has its listing_id, price_cents, list_price_cents, condition, seller (store_name) and in_stock (true or false; quantities are never shown). buy_box_listing_id names the recommended offer: the lowest price including shipping among in-stock offers, new preferred over used; null when nothing is in stock. Use listing_ids with create_cart_link. A slug that is not publicly listed gives a not_found_error (code product_not_found). The result is exactly GET /api/public/v1/products/{slug}.`,
    inputSchema: advertisedInput(productInput),
    outputSchema: responseBody(ProductResponse, productEndpoint.errors, productInput),
    annotations: { title: "Get a product with its offers", ...READ_ONLY },
    run: async (args) => ({ data: await withCatalogReader((client) => getProduct(client, bodyArguments(ProductPath.strict(), args).slug)) }),
    text: (result) => text.productText(result.data as z.output<typeof ProductResponse>["data"]),
  },
  {
    name: "get_categories",
    title: "Get the category tree",
    description: `The whole active category tree: each node has slug, name, path (the slugs from the top, joined by dots) and children. A slug is the category filter of search_products, which then includes every subcategory. The tree changes rarely; fetch it once. The result is exactly GET /api/public/v1/categories.`,
    inputSchema: advertisedInput(noInput),
    outputSchema: responseBody(CategoriesResponse, categoriesEndpoint.errors, noInput),
    annotations: { title: "Get the category tree", ...READ_ONLY },
    run: async (args) => {
      bodyArguments(NoArguments, args);
      return withCatalogReader(getCategoryTree);
    },
    text: (result) => {
      const { data, meta } = result as z.output<typeof CategoriesResponse>;
      return text.categoriesText(data, meta.count);
    },
  },
  {
    name: "create_cart_link",
    title: "Create a cart link for a person",
    description: `Turns offers the person has chosen into a cart link for them to open. items: 1-20 lines of { listing_id, quantity } with listing_ids from get_product and quantity 1-99 (a repeated listing_id is summed, up to 99). Returns url (valid for 7 days, until expires_at), accepted (lines taken) and rejected (lines left out, with reason unavailable or insufficient_stock; a line of more than one unit is compared with the stock only a few times a day per offer, then accepted unchecked and checked when the link is opened).
The link is for a human: give them the URL. Opening it puts the lines into that person's own cart on the site, where they review and pay themselves. It places no order, takes no payment and reserves no stock; price and availability are checked again when it is opened. When no line can be bought, the result is an error (code no_purchasable_lines) whose error.rejected lists why. The result is exactly POST /api/public/v1/cart-links with the same body.`,
    inputSchema: advertisedInput(cartLinkInput),
    outputSchema: responseBody(CartLinkResponse, cartLinksEndpoint.errors, cartLinkInput),
    annotations: { title: "Create a cart link for a person", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (args) => ({ data: await withDb((client) => createCartLink(client, bodyArguments(CartLinkRequest, args))) }),
    text: (result) => text.cartLinkText(result.data as z.output<typeof CartLinkResponse>["data"]),
  },
  {
    name: "search_help",
    title: "Search the help centre",
    description: `Searches the help centre (the articles people read at /help): shipping and delivery, returns, how search works, buying with a cart link, selling, connecting agents. Every word of q must appear in an article's title, summary or text; omit q to list every article. Returns each article's slug, title, summary and page URL; call get_help_article for the full text.`,
    inputSchema: advertisedInput(helpSearchInput),
    outputSchema: responseBody(zod.object({ data: zod.array(HelpArticleSummary), meta: HelpSearchMeta }).strict(), [], helpSearchInput),
    annotations: { title: "Search the help centre", ...READ_ONLY },
    run: async (args) => {
      const articles = await withDb((client) => searchHelpArticles(client, bodyArguments(HelpSearchRequest, args).q));
      return { data: articles, meta: { count: articles.length } };
    },
    text: (result) => text.helpSearchText(result.data as z.output<typeof HelpArticleSummary>[]),
  },
  {
    name: "get_help_article",
    title: "Read a help article",
    description: `The full text (Markdown) of one help article by slug (from search_help, or the last part of a /help/{slug} URL), with its page URL, which you can give to a person. An unknown slug gives a not_found_error (code help_article_not_found).`,
    inputSchema: advertisedInput(helpArticleInput),
    outputSchema: responseBody(zod.object({ data: HelpArticle, meta: RequestMeta }).strict(), ["help_article_not_found"], helpArticleInput),
    annotations: { title: "Read a help article", ...READ_ONLY },
    run: async (args) => ({ data: await withDb((client) => getHelpArticle(client, bodyArguments(HelpArticlePath, args).slug)) }),
    text: (result) => text.helpArticleText(result.data as z.output<typeof HelpArticle>),
  },
  {
    name: "get_connection_guide",
    title: "How to connect MCP clients",
    description: `How to add this MCP server to common clients (Claude Code, Claude Desktop, Cursor, VS Code, MCP Inspector, any streamable HTTP client), with this server's URL filled in, and the rules every client follows (no authentication, rate limits, User-Agent); agent_server describes the authenticated server (OAuth) for agents that act for an account holder: cart, checkout, orders and returns. Use it when a person asks how to use this marketplace from their own tools.`,
    inputSchema: advertisedInput(noInput),
    outputSchema: responseBody(zod.object({ data: ConnectionGuide, meta: RequestMeta }).strict(), [], noInput),
    annotations: { title: "How to connect MCP clients", ...READ_ONLY },
    run: async (args) => {
      bodyArguments(NoArguments, args);
      return { data: connectionGuide() };
    },
    text: (result) => text.connectionGuideText(result.data as z.output<typeof ConnectionGuide>),
  },
];

