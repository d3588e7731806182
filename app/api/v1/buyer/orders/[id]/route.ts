import { oauthPrincipalOf } from "@/lib/auth/principal";
import { getOrder } from "@/lib/buyer";
import { getOrderEndpoint } from "@/lib/endpoints/buyer/orders";
import { buyerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const GET = route(getOrderEndpoint, async ({ db, principal, params }) => ({ data: await getOrder(db, oauthPrincipalOf(principal).userId, params.id!) }));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"], { access: buyerFallbackAccess(), name: "buyer.method_not_allowed" });
