import { oauthPrincipalOf, principalKey } from "@/lib/auth/principal";
import { buyerCheckout, checkoutTokenFor } from "@/lib/buyer";
import { checkoutEndpoint } from "@/lib/endpoints/buyer/checkout";
import { buyerFallbackAccess } from "@/lib/http/access";
import { withDb } from "@/lib/http/database";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const POST = route(checkoutEndpoint, async ({ principal, body, idempotencyKey }) => ({
  status: 201,
  data: await withDb((client) => buyerCheckout(client, oauthPrincipalOf(principal), body, checkoutTokenFor(principalKey(principal), idempotencyKey))),
}));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: buyerFallbackAccess(), name: "buyer.method_not_allowed" });
