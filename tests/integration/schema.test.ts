/**
 * schema.prisma and the hand-written migrations must describe the same tables: every model's
 * generated client query (which names every mapped column) runs against the migrated database.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";

const client = createDb(inject("DATABASE_URL"));
afterAll(() => client.$disconnect());

describe("schema.prisma matches the migrated database", () => {
  const models = [
    "user",
    "store",
    "brand",
    "category",
    "product",
    "productImage",
    "listing",
    "shippingTemplate",
    "shippingRate",
    "stockAdjustment",
    "helpArticle",
    "cartLink",
    "cartLinkLine",
    "cart",
    "cartLine",
    "cartLinkOpen",
    "address",
    "paymentMethod",
    "order",
    "orderStore",
    "orderLine",
    "orderEvent",
    "return",
    "returnLine",
    "agentSettings",
    "oAuthRecord",
    "agentConnection",
    "agentApproval",
    "paymentAttempt",
    "checkoutSession",
    "protocolCheckout",
    "outboxEmail",
    "secretReveal",
  ] as const;

  it.each(models)("%s: findFirst selects every column", async (model) => {
    const delegate = client[model] as unknown as { findFirst: () => Promise<unknown> };
    await expect(delegate.findFirst()).resolves.toBeDefined();
  });

  it("running the migrations again applies nothing", async () => {
    await expect(migrate(client)).resolves.toEqual([]);
  });
});
