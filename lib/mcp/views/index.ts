import { shownUrl } from "@/lib/config";
import { CURRENCY } from "@/lib/currency";
import { VIEW_SCRIPT } from "./script";
import { VIEW_STYLE } from "./style";

/**
 * The MCP Apps views (ext-apps 2026-01-26): `ui://` resources of MIME `text/html;profile=mcp-app`
 * that a host renders in a sandboxed iframe for the tools that link them (`_meta.ui.resourceUri`).
 * Each is one small HTML document: the storefront's look (./style.ts) and one script (./script.ts)
 * that renders the tool result's structured content, so a text-only client, which never loads a
 * view, gets the same data as text and structured content. No remote origin but ours: images come
 * from the catalog's own URLs, nothing is fetched (the view calls tools through its host).
 */

export type ViewName = "products" | "cart" | "checkout";

/**
 * What the products view does with an offer: the agent server adds it to the holder's cart (the
 * app-only view_add_to_cart); the public server makes a cart link (create_cart_link) and opens it.
 */
export type ViewActions = "cart" | "cart-link";

interface ViewDefinition {
  title: string;
  description: string;
}

export const VIEWS: Record<ViewName, ViewDefinition> = {
  products: {
    title: "Product cards",
    description: "Search results as a carousel of product cards; a product with its offers, the featured one marked.",
  },
  cart: {
    title: "Cart",
    description: "The holder's cart, lines grouped per store, quantities to change, shipping, total and the agent limits left this month.",
  },
  checkout: {
    title: "Order placed",
    description: "The order an agent placed, lines per store, shipping and total, and the agent limits left this month.",
  },
};

/** At most this many bytes of HTML a view may be (tests/unit/mcp-views.test.ts checks each). */
export const VIEW_BYTE_BUDGET = 16_384;

export function viewUri(name: ViewName): string {
  return `ui://marketplace/${name}.html`;
}

/** The view's `_meta.ui`: its CSP allows images from our own origin (the one its links use) and nothing else remote. */
export function viewMeta(): { ui: { csp: { connectDomains: string[]; resourceDomains: string[]; frameDomains: string[] }; prefersBorder: boolean } } {
  const origin = new URL(shownUrl("/")).origin;
  return { ui: { csp: { connectDomains: [], resourceDomains: [origin], frameDomains: [] }, prefersBorder: true } };
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The view's HTML document. */
export function viewHtml(name: ViewName, actions: ViewActions): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${VIEWS[name].title}</title><style>${VIEW_STYLE}</style></head>` +
    `<body data-view="${escapeAttribute(name)}" data-actions="${escapeAttribute(actions)}" data-currency="${CURRENCY}"><main id="root" aria-live="polite"><p class="muted">Loading…</p></main>` +
    `<p id="status" class="status" role="status"></p><script>${VIEW_SCRIPT}</script></body></html>`
  );
}
