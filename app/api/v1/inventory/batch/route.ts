import { storeIdOf } from "@/lib/auth/principal";
import { inventoryBatchEndpoint } from "@/lib/endpoints/seller/inventory";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { applyInventoryBatch } from "@/lib/seller/inventory";

export const POST = route(inventoryBatchEndpoint, async ({ db, principal, body }) => ({
  data: await applyInventoryBatch(db, storeIdOf(principal), body.adjustments),
}));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
