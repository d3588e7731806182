import { oauthPrincipalOf } from "@/lib/auth/principal";
import { addCartLine } from "@/lib/buyer";
import { addCartLineEndpoint } from "@/lib/endpoints/buyer/cart";
import { buyerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const POST = route(addCartLineEndpoint, async ({ db, principal, body }) => ({
  data: await addCartLine(db, oauthPrincipalOf(principal).userId, body),
}));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: buyerFallbackAccess(), name: "buyer.method_not_allowed" });
