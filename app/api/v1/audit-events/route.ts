import { listAuditEvents } from "@/lib/audit";
import { storeIdOf } from "@/lib/auth/principal";
import { listAuditEventsEndpoint } from "@/lib/endpoints/seller/audit";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const GET = route(listAuditEventsEndpoint, async ({ db, principal, query }) => listAuditEvents(db, storeIdOf(principal), query));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
