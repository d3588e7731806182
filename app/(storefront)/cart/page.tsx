import type { Metadata } from "next";
import { cookies } from "next/headers";
import { defaultAddress } from "@/lib/accounts/addresses";
import { withDb } from "@/lib/http/database";
import { getSessionUser } from "@/lib/http/session";
import { getCart } from "@/lib/cart/cart";
import { atRequestOrigin } from "../_lib/request-origin";
import { CART_COOKIE } from "@/lib/cart/cookie";
import { quoteCheckout } from "@/lib/checkout";
import type { CartNotice } from "@/lib/schemas/cart-forms";
import { cartOwnerOf } from "../_lib/cart-owner";
import { CartLines } from "../_components/CartLines";

export const metadata: Metadata = { title: "Your cart", robots: { index: false } };

const NOTICES: Record<CartNotice, string> = {
  added: "Added to your cart.",
  updated: "Quantity updated.",
  removed: "Removed from your cart.",
  not_in_cart: "That item is not in your cart (any more), so nothing changed.",
  unavailable: "That offer cannot be bought right now, so it was not added.",
  insufficient_stock: "The seller does not have that many in stock, so nothing was added. Try a smaller quantity.",
  invalid: "That did not work: the quantity must be a whole number from 1 to 99.",
  full: "Your cart is full. Remove something first.",
};

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function CartPage({ searchParams }: Props) {
  const [user, jar, { notice }] = await Promise.all([getSessionUser(), cookies(), searchParams]);
  const owner = cartOwnerOf(user, jar.get(CART_COOKIE)?.value);
  const [cart, address] = await withDb((client) => Promise.all([atRequestOrigin(() => getCart(client, owner)), user ? defaultAddress(client, user.id) : null]));
  // Each store's parcel as checkout will quote it (shipping, estimate, returns), to the default address's country.
  const country = address?.country ?? "US";
  const quote = owner && cart.lines.length ? await withDb((client) => quoteCheckout(client, { cart: owner }, { country })) : null;
  const terms = new Map(quote?.stores.flatMap((s) => (s.terms ? [[s.store_slug, s.terms] as const] : [])));
  const message = typeof notice === "string" && notice in NOTICES ? NOTICES[notice as CartNotice] : null;
  return (
    <main className="page" data-page="cart">
      <h1>Your cart</h1>
      {message ? (
        <p className="notice" role="status" data-notice={notice}>
          {message}
        </p>
      ) : null}
      <CartLines cart={cart} terms={terms} country={country} />
    </main>
  );
}
