import type { DbClient } from "@/lib/db";
import type { ShippingTemplateData, ShippingTemplateListOptions } from "@/lib/schemas/seller/shipping";
import { badCursor, decodeCursor, encodeCursor } from "../cursor";
import { isUuid } from "@/lib/ids";
import { toShippingTemplate, WITH_RATES } from "./shape";

const CURSOR_KIND = "shipping_templates";

export interface ShippingTemplatePage {
  list: ShippingTemplateData[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

/**
 * The templates of `storeId`, newest first (ties by id), `limit` per page. The cursor holds the
 * last row's creation time and id, so a page continues exactly after it.
 */
export async function listShippingTemplates(db: DbClient, storeId: string, options: ShippingTemplateListOptions): Promise<ShippingTemplatePage> {
  const after = options.cursor === undefined ? undefined : decodePosition(options.cursor);
  const rows = await db.shippingTemplate.findMany({
    where: {
      storeId,
      ...(after && { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.limit + 1,
    include: WITH_RATES,
  });
  const page = rows.slice(0, options.limit);
  const last = page[page.length - 1];
  return {
    list: page.map(toShippingTemplate),
    next_cursor: rows.length > options.limit && last ? encodeCursor(CURSOR_KIND, [last.createdAt.getTime(), last.id]) : null,
  };
}

function decodePosition(cursor: string): { createdAt: Date; id: string } {
  const [time, id] = decodeCursor(CURSOR_KIND, cursor, ["number", "string"]) as [number, string];
  const createdAt = new Date(time);
  if (Number.isNaN(createdAt.getTime()) || !isUuid(id)) throw badCursor();
  return { createdAt, id };
}
