import type { Prisma, DbClient } from "@/lib/db";
import { UUID } from "@/lib/ids";

const TEMPLATE_SELECT = {
  id: true,
  name: true,
  handlingDays: true,
  createdAt: true,
  updatedAt: true,
  rates: {
    select: { region: true, service: true, priceCents: true, freeOverCents: true, minDays: true, maxDays: true },
    orderBy: [{ position: "asc" }, { region: "asc" }, { service: "asc" }],
  },
  _count: { select: { listings: true } },
} satisfies Prisma.ShippingTemplateSelect;

/** Every shipping template of the store with its rates and how many listings use it, newest first. */
export async function shippingTemplatesOfStore(client: DbClient, storeId: string) {
  return client.shippingTemplate.findMany({
    where: { storeId },
    select: TEMPLATE_SELECT,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

/** One template of the store, or null for any id that is not one of its templates. */
export async function shippingTemplateForEdit(client: DbClient, storeId: string, templateId: string) {
  if (!UUID.test(templateId)) return null;
  return client.shippingTemplate.findFirst({ where: { id: templateId.toLowerCase(), storeId }, select: TEMPLATE_SELECT });
}
