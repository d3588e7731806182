import type { Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { ShippingTemplateData } from "@/lib/schemas/seller/shipping";

/** Rates in the order the seller sent them (the seed's, which carry no order, by region and service). */
export const WITH_RATES = {
  rates: { orderBy: [{ position: "asc" }, { region: "asc" }, { service: "asc" }] },
} satisfies Prisma.ShippingTemplateInclude;

type TemplateRow = Prisma.ShippingTemplateGetPayload<{ include: typeof WITH_RATES }>;

/** A stored template in its wire shape (decisions.md "Seller API"), exactly these fields. */
export function toShippingTemplate(row: TemplateRow): ShippingTemplateData {
  return {
    id: row.id,
    object: "shipping_template",
    name: row.name,
    handling_days: row.handlingDays,
    rates: row.rates.map((rate) => ({
      region: rate.region,
      service: rate.service,
      price_cents: rate.priceCents,
      free_over_cents: rate.freeOverCents,
      min_days: rate.minDays,
      max_days: rate.maxDays,
    })),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Rates of a request as rows of `templateId`, keeping their order. */
export function rateRows(
  templateId: string,
  rates: ReadonlyArray<{ region: string; service: "standard" | "expedited"; price_cents: number; free_over_cents: number | null; min_days: number; max_days: number }>,
): Prisma.ShippingRateCreateManyInput[] {
  return rates.map((rate, position) => ({
    templateId,
    region: rate.region,
    service: rate.service,
    priceCents: rate.price_cents,
    freeOverCents: rate.free_over_cents,
    minDays: rate.min_days,
    maxDays: rate.max_days,
    position,
  }));
}

/** Unknown, malformed and other stores' ids alike: a key sees only its own store. */
export function shippingTemplateNotFound(id: string): AppError {
  const shown = isUuid(id) ? ` '${id}'` : "";
  return new AppError("shipping_template_not_found", `No shipping template of this store has the id${shown}.`);
}
