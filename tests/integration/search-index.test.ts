/**
 * decisions.md "Purchasable offer": product_search, which search reads, follows every change
 * that makes an offer purchasable or not, through the triggers of the search migration.
 * Each case runs in a transaction that is rolled back, so the HTTP tests never see it.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb, type PrismaClient } from "@/lib/db";

const client: PrismaClient = createDb(inject("DATABASE_URL"));
afterAll(() => client.$disconnect());

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
const ROLLBACK = new Error("rollback");

async function inRolledBackTx(work: (tx: Tx) => Promise<void>) {
  await expect(
    client.$transaction(async (tx) => {
      await work(tx);
      throw ROLLBACK;
    }),
  ).rejects.toBe(ROLLBACK);
}

async function searchRow(tx: Tx, slug: string) {
  const rows = await tx.$queryRaw<{ offer_count: number; min_price_cents: number; offer_prices: number[] }[]>`
    SELECT ps.offer_count, ps.min_price_cents, ps.offer_prices
    FROM product_search ps JOIN products p ON p.id = ps.product_id WHERE p.slug = ${slug}`;
  return rows[0] ?? null;
}

describe("product_search follows listing, product and store changes", () => {
  it("starts from the fixture: 4 purchasable offers, cheapest 6000", async () => {
    await inRolledBackTx(async (tx) => {
      expect(await searchRow(tx, "fixture-mixed-offers")).toEqual({
        offer_count: 4,
        min_price_cents: 6000,
        offer_prices: [6000, 7000, 9800, 10000],
      });
    });
  });

  it("deactivating the cheapest listing removes its offer", async () => {
    await inRolledBackTx(async (tx) => {
      await tx.$executeRaw`UPDATE listings SET status = 'inactive' WHERE sku = 'MIX-USED-B'`;
      expect(await searchRow(tx, "fixture-mixed-offers")).toMatchObject({ offer_count: 3, min_price_cents: 7000 });
    });
  });

  it("selling out without backorder removes the offer; a backorder keeps it", async () => {
    await inRolledBackTx(async (tx) => {
      await tx.$executeRaw`UPDATE listings SET quantity = 0 WHERE sku IN ('MIX-USED-B', 'MIX-NEW-B')`;
      expect(await searchRow(tx, "fixture-mixed-offers")).toMatchObject({ offer_prices: [7000, 10000] });
    });
  });

  it("publishing a draft listing adds its offer", async () => {
    await inRolledBackTx(async (tx) => {
      await tx.$executeRaw`UPDATE listings SET status = 'active' WHERE sku = 'MIX-DRAFT'`;
      expect(await searchRow(tx, "fixture-mixed-offers")).toMatchObject({ offer_count: 5, min_price_cents: 1000 });
    });
  });

  it("reactivating a suspended store brings back its offers; suspending a store hides them", async () => {
    await inRolledBackTx(async (tx) => {
      await tx.$executeRaw`UPDATE stores SET status = 'active' WHERE slug = 'fixture-suspended-store'`;
      expect(await searchRow(tx, "fixture-mixed-offers")).toMatchObject({ offer_count: 5, min_price_cents: 1400 });
      expect(await searchRow(tx, "fixture-suspended-only")).not.toBeNull();
      await tx.$executeRaw`UPDATE stores SET status = 'suspended' WHERE slug = 'fixture-store-b'`;
      expect(await searchRow(tx, "fixture-mixed-offers")).toMatchObject({ offer_prices: [1400, 7000, 10000] });
    });
  });

  it("unlisting a product removes it; listing it again restores it", async () => {
    await inRolledBackTx(async (tx) => {
      await tx.$executeRaw`UPDATE products SET publicly_listed = false WHERE slug = 'fixture-mixed-offers'`;
      expect(await searchRow(tx, "fixture-mixed-offers")).toBeNull();
      await tx.$executeRaw`UPDATE products SET publicly_listed = true WHERE slug = 'fixture-unlisted'`;
      expect(await searchRow(tx, "fixture-unlisted")).not.toBeNull();
    });
  });

  it("a renamed brand re-weights the stored tsvector", async () => {
    await inRolledBackTx(async (tx) => {
      await tx.$executeRaw`UPDATE brands SET name = 'Zebracorn' WHERE id = (SELECT brand_id FROM products WHERE slug = 'fixture-mixed-offers')`;
      const rows = await tx.$queryRaw<{ hit: boolean }[]>`
        SELECT search_vector @@ websearch_to_tsquery('english', 'zebracorn') AS hit FROM products WHERE slug = 'fixture-mixed-offers'`;
      expect(rows[0]?.hit).toBe(true);
    });
  });
});

describe("search_terms: the dictionary that corrects misspelt query words", () => {
  it("holds the words of searchable titles, brand and category names", async () => {
    const rows = await client.$queryRaw<{ term: string }[]>`
      SELECT term FROM search_terms WHERE term IN ('quokkaphone', 'smartphones', 'wombatwidget')`;
    expect(rows.map((r) => r.term).sort()).toEqual(["quokkaphone", "smartphones", "wombatwidget"]);
  });

  it("gains the words of a product when it becomes searchable", async () => {
    await inRolledBackTx(async (tx) => {
      await tx.$executeRaw`UPDATE products SET title = 'Quokkaphone Zanzibarite Edition' WHERE slug = 'fixture-mixed-offers'`;
      const rows = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM search_terms WHERE term = 'zanzibarite'`;
      expect(rows[0]?.n).toBe(1);
    });
  });
});

describe("search_lexemes: whether the catalog contains a word at all", () => {
  it("holds every lexeme of searchable documents, description and attribute words included", async () => {
    await inRolledBackTx(async (tx) => {
      await tx.$executeRaw`UPDATE products SET description = 'Made of zirconolite.', attributes = '{"color": "Vermilionish"}'
                           WHERE slug = 'fixture-mixed-offers'`;
      const rows = await tx.$queryRaw<{ lexeme: string }[]>`
        SELECT lexeme FROM search_lexemes
        WHERE lexeme IN (SELECT unnest(tsvector_to_array(to_tsvector('catalog', 'zirconolite vermilionish'))))`;
      expect(rows).toHaveLength(2);
    });
  });

  it("does not gain the words of a product nobody can buy", async () => {
    await inRolledBackTx(async (tx) => {
      await tx.$executeRaw`UPDATE products SET description = 'Made of zirconolite.' WHERE slug = 'fixture-unlisted'`;
      const rows = await tx.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM search_lexemes WHERE lexeme = ANY(tsvector_to_array(to_tsvector('catalog', 'zirconolite')))`;
      expect(rows[0]?.n).toBe(0);
    });
  });
});
