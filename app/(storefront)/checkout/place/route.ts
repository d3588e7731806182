import { CART_COOKIE } from "@/lib/cart/cookie";
import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { placeOrder, saveCheckoutDraft } from "@/lib/checkout";
import { cartOwnerOf } from "../../_lib/cart-owner";
import { seeOther } from "@/lib/http/form-answer";
import { checkoutTokenOf, expectedLinesOf, expectedTotalOf, refusedCheckout } from "../_lib/form";

/**
 * "Place order" on /checkout: buys the visitor's cart (the account's while signed in) as the page
 * showed it. The page's one-time token is the checkout token, so a double click places one order
 * and both posts land on its confirmation page. A refusal changes nothing and goes back to
 * /checkout with the message and what was typed, which is also kept as the cart's draft (never the
 * card number), so a later visit fills it in again.
 */
export const POST = formRoute({ name: "checkout.place", session: "optional" }, async ({ request, form, user }) => {
  const owner = cartOwnerOf(user, request.cookies.get(CART_COOKIE)?.value);
  try {
    if (!owner) throw new AppError("cart_empty", "Your cart is empty: there is nothing to buy.");
    const typedAddress = form.address !== "saved";
    const placed = await withDb((client) =>
      placeOrder(client, {
        buyer: user ? { userId: user.id } : { email: form.email ?? "" },
        source: { cart: owner },
        shippingAddress: typedAddress
          ? { full_name: form.full_name, line1: form.line1, line2: form.line2, city: form.city, state: form.state, postal_code: form.postal_code }
          : undefined,
        cardNumber: form.payment === "saved" ? undefined : (form.card_number ?? ""),
        placedVia: "storefront",
        checkoutToken: checkoutTokenOf(form),
        expectedTotalCents: expectedTotalOf(form),
        expectedLines: expectedLinesOf(form),
      }),
    );
    return seeOther(placed.confirmation_path);
  } catch (err) {
    if (owner && err instanceof AppError && err.status < 500) await withDb((client) => saveCheckoutDraft(client, owner, form));
    return refusedCheckout(err, form);
  }
});
