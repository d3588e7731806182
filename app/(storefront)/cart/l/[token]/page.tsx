import type { Metadata } from "next";
import { cookies } from "next/headers";
import { formatCents } from "@/lib/catalog/money";
import { CartFullError, openCartLink, type LinkLineReport } from "@/lib/cart/cart";
import { withDb } from "@/lib/http/database";
import { getSessionUser } from "@/lib/http/session";
import { CART_COOKIE } from "@/lib/cart/cookie";
import { CartLines, STATUS_TEXT } from "../../../_components/CartLines";
import { cartOwnerOf } from "../../../_lib/cart-owner";

export const metadata: Metadata = { title: "Cart link", robots: { index: false } };

type Props = { params: Promise<{ token: string }> };

/**
 * The page a cart link opens: it puts the link's lines into the visitor's own cart (the cookie is
 * set by proxy.ts), re-checks price and availability now and says what changed.
 *
 * Every state (opened, expired, unknown) renders here with status 200: in Next 16 a page that
 * calls notFound() is served as an empty HTML shell whose content appears only once JavaScript
 * runs (vercel/next.js#98954), and these messages must be readable without it. The page is
 * noindex and never cached.
 */
export default async function CartLinkPage({ params }: Props) {
  const { token } = await params;
  // Signed in: the link fills the account's cart; else the cookie's (proxy.ts made one if needed).
  const owner = cartOwnerOf(await getSessionUser(), (await cookies()).get(CART_COOKIE)?.value);
  let result;
  try {
    result = owner ? await withDb((client) => openCartLink(client, owner, token)) : ({ state: "not_found" } as const);
  } catch (err) {
    if (err instanceof CartFullError) {
      return (
        <main className="page" data-page="cart-link" data-cart-link-state="cart_full">
          <h1>Your cart is full</h1>
          <p>
            A cart holds at most 100 different offers. <a href="/cart">Open your cart</a>, remove something, then open
            the link again.
          </p>
        </main>
      );
    }
    throw err;
  }
  if (result.state === "not_found") {
    return (
      <main className="page" data-page="cart-link" data-cart-link-state="not_found">
        <h1>Cart link not found</h1>
        <p>
          This cart link does not exist. Check that the whole address was copied, or ask for a new link. You can also{" "}
          <a href="/search">find the items yourself</a>.
        </p>
        <p>
          <a href="/cart">Open your cart</a>
        </p>
      </main>
    );
  }
  if (result.state === "expired") {
    return (
      <main className="page" data-page="cart-link" data-cart-link-state="expired">
        <h1>This cart link has expired</h1>
        <p>
          Cart links last 7 days; this one ended on{" "}
          <time dateTime={result.expiresAt.toISOString()}>{result.expiresAt.toUTCString()}</time>. Nothing was added
          to your cart. Ask for a new link, or <a href="/search">find the items yourself</a>.
        </p>
        <p>
          <a href="/cart">Open your cart</a>
        </p>
      </main>
    );
  }

  // Backorder is how such an offer was sold when the link was made too: not a change.
  const changes = result.lines.filter(
    (l) => l.status === "unavailable" || l.status === "insufficient_stock" || l.price_cents !== l.link_price_cents,
  );
  return (
    <main className="page" data-page="cart-link" data-cart-link-state="opened" data-first-open={String(result.firstOpen)}>
      <h1>{result.firstOpen ? "Added to your cart" : "Already in your cart"}</h1>
      <p>
        {result.firstOpen
          ? "The items of this link are now in your cart."
          : "You opened this link before, so its items were not added again."}{" "}
        Prices and availability were checked just now.
      </p>
      {changes.length ? (
        <section className="notice" aria-labelledby="changes-title" data-link-changes={changes.length}>
          <h2 id="changes-title">What changed since the link was made</h2>
          <ul>
            {changes.map((line) => (
              <li key={line.listing_id} data-link-line={line.listing_id} data-status={line.status}>
                {describeChange(line)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <h2>Your cart</h2>
      <CartLines cart={result.cart} storeHeading="h3" />
    </main>
  );
}

function describeChange(line: LinkLineReport): string {
  const name = line.title ?? "An item";
  if (line.status === "unavailable") return `${name} is no longer available and was not added.`;
  const parts: string[] = [];
  if (line.price_cents !== null && line.price_cents !== line.link_price_cents) {
    const direction = line.price_cents > line.link_price_cents ? "went up" : "went down";
    parts.push(`${name}: the price ${direction} from ${formatCents(line.link_price_cents)} to ${formatCents(line.price_cents)}.`);
  }
  if (line.status === "insufficient_stock") parts.push(`${name}: ${STATUS_TEXT[line.status]}.`);
  return parts.join(" ");
}
