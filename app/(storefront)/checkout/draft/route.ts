import { CART_COOKIE } from "@/lib/cart/cookie";
import { saveCheckoutDraft } from "@/lib/checkout";
import { withDb } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { cartOwnerOf } from "../../_lib/cart-owner";
import { seeOther } from "@/lib/http/form-answer";

/**
 * Keeps what was typed on /checkout with the visitor's cart, so that the page fills it in again
 * after a reload: the page posts here as it is typed into (with JavaScript) or on "Save details
 * for later" (without). Only the contact and address fields are kept (lib/checkout/draft.ts).
 */
export const POST = formRoute({ name: "checkout.draft", session: "optional" }, async ({ request, form, user }) => {
  const owner = cartOwnerOf(user, request.cookies.get(CART_COOKIE)?.value);
  const saved = owner ? await withDb((client) => saveCheckoutDraft(client, owner, form)) : false;
  return seeOther(saved ? "/checkout?draft=saved" : "/checkout");
});
