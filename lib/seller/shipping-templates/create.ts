import type { DbClient } from "@/lib/db";
import type { CreateShippingTemplateInput, ShippingTemplateData } from "@/lib/schemas/seller/shipping";
import { rateRows, toShippingTemplate, WITH_RATES } from "./shape";

/** A new template of `storeId` with its rates, written in the caller's transaction. */
export async function createShippingTemplate(db: DbClient, storeId: string, input: CreateShippingTemplateInput): Promise<ShippingTemplateData> {
  const template = await db.shippingTemplate.create({
    data: { storeId, name: input.name, handlingDays: input.handling_days },
    select: { id: true },
  });
  await db.shippingRate.createMany({ data: rateRows(template.id, input.rates) });
  const row = await db.shippingTemplate.findUniqueOrThrow({ where: { id: template.id }, include: WITH_RATES });
  return toShippingTemplate(row);
}
