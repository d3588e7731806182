import { cookies, headers } from "next/headers";
import { withDb } from "@/lib/http/database";
import { getSessionUser } from "@/lib/http/session";
import { getCart } from "@/lib/cart/cart";
import { CART_COOKIE } from "@/lib/cart/cookie";
import { PAGE_PATH_HEADER, showsVisitorState } from "@/lib/storefront/private-pages";
import { cartOwnerOf } from "../_lib/cart-owner";

/**
 * The header's Cart link, with the cart's item count ("Cart (3)") on private pages only: catalog
 * pages are cached publicly, so they never carry one visitor's count. A plain link, not <Link>:
 * a layout survives client-side navigation, and a full load renders the header for the new page.
 */
export async function CartLink() {
  const pathname = (await headers()).get(PAGE_PATH_HEADER);
  if (!showsVisitorState(pathname)) return <a href="/cart">Cart</a>;
  const owner = cartOwnerOf(await getSessionUser(), (await cookies()).get(CART_COOKIE)?.value);
  const count = owner ? (await withDb((client) => getCart(client, owner))).item_count : 0;
  return (
    <a href="/cart" data-cart-count={count} aria-current={pathname === "/cart" ? "page" : undefined}>
      {count > 0 ? `Cart (${count})` : "Cart"}
    </a>
  );
}
