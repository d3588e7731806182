import { oauthPrincipalOf } from "@/lib/auth/principal";
import { listOrders } from "@/lib/buyer";
import { listOrdersEndpoint } from "@/lib/endpoints/buyer/orders";
import { buyerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const GET = route(listOrdersEndpoint, async ({ db, principal, query }) => listOrders(db, oauthPrincipalOf(principal).userId, query));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"], { access: buyerFallbackAccess(), name: "buyer.method_not_allowed" });
