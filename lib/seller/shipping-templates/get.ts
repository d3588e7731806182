import type { DbClient } from "@/lib/db";
import type { ShippingTemplateData } from "@/lib/schemas/seller/shipping";
import { isUuid } from "@/lib/ids";
import { shippingTemplateNotFound, toShippingTemplate, WITH_RATES } from "./shape";

/** One template of `storeId`; any other id (malformed, unknown, another store's) is 404 `shipping_template_not_found`. */
export async function getShippingTemplate(db: DbClient, storeId: string, id: string): Promise<ShippingTemplateData> {
  if (!isUuid(id)) throw shippingTemplateNotFound(id);
  const row = await db.shippingTemplate.findFirst({ where: { id: id.toLowerCase(), storeId }, include: WITH_RATES });
  if (!row) throw shippingTemplateNotFound(id);
  return toShippingTemplate(row);
}
