import { z } from "@/lib/schemas/zod";
import { apiKeyAccess } from "@/lib/http/access";
import { defineEndpoint, type Endpoint } from "@/lib/http/describe";
import { RequestMeta } from "@/lib/schemas/seller/common";
import { InventoryBatch, StockAdjustment } from "@/lib/schemas/seller/listings";

export const inventoryBatchEndpoint = defineEndpoint({
  name: "seller.inventory.batch",
  method: "POST",
  path: "/inventory/batch",
  operationId: "applyInventoryBatch",
  summary: "Apply up to 100 stock adjustments",
  description:
    "Each adjustment changes one listing's quantity by `delta` or sets it to `set_quantity`, optionally only when it " +
    "holds `expected_quantity`. Applied in order, all or none: the first failing adjustment is named in `param` " +
    "(`adjustments[3].delta`). Concurrent batches on the same listing never lose an update.",
  tags: ["Inventory"],
  access: apiKeyAccess(["listings:write"]),
  body: InventoryBatch,
  idempotent: true,
  success: {
    status: 200,
    description: "One stock adjustment per adjustment, in request order.",
    schema: z.object({ data: z.array(StockAdjustment), meta: RequestMeta }).strict(),
  },
  errors: ["listing_not_found", "listing_archived", "stale_quantity", "quantity_negative"],
});

export const INVENTORY_ENDPOINTS: Endpoint[] = [inventoryBatchEndpoint] as Endpoint[];
