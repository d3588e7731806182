import { Prisma, type DbClient } from "@/lib/db";
import type { ShippingTemplateData, UpdateShippingTemplateInput } from "@/lib/schemas/seller/shipping";
import { getShippingTemplate } from "./get";
import { isUuid } from "@/lib/ids";
import { rateRows, shippingTemplateNotFound } from "./shape";

/**
 * Changes the given fields of one template of `storeId`; `rates` replaces every rate. The row is
 * locked first, so two updates of one template run one after the other (never a mix of both
 * rate sets). Fields left out keep their value; a body with none changes nothing.
 */
export async function updateShippingTemplate(db: DbClient, storeId: string, id: string, input: UpdateShippingTemplateInput): Promise<ShippingTemplateData> {
  if (!isUuid(id)) throw shippingTemplateNotFound(id);
  const templateId = id.toLowerCase();
  const locked = await db.$queryRaw<{ id: string }[]>(Prisma.sql`
    SELECT id FROM shipping_templates WHERE id = ${templateId}::uuid AND store_id = ${storeId}::uuid FOR UPDATE`);
  if (locked.length === 0) throw shippingTemplateNotFound(id);

  if (input.name !== undefined || input.handling_days !== undefined || input.rates !== undefined) {
    await db.shippingTemplate.update({
      where: { id: templateId },
      data: { name: input.name, handlingDays: input.handling_days, updatedAt: new Date() },
    });
    if (input.rates !== undefined) {
      await db.shippingRate.deleteMany({ where: { templateId } });
      await db.shippingRate.createMany({ data: rateRows(templateId, input.rates) });
    }
  }
  return getShippingTemplate(db, storeId, templateId);
}
