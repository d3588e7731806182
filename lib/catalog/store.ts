import type { CatalogClient } from "@/lib/db";

/** What a shopper sees of a store: only public facts, never stock or owners. */
export interface PublicStore {
  id: string;
  slug: string;
  name: string;
  /** When the store opened (ISO 8601). */
  selling_since: string;
  /** Its templates' standard rates to the US (the `*` rate where there is no US one), cheapest first. */
  shipping: Array<{ price_cents: number; free_over_cents: number | null; min_days: number; max_days: number; handling_days: number }>;
}

/** Days after delivery within which an order may be returned (decisions.md, "Returns"); the marketplace's rule for every store. */
export { RETURN_WINDOW_DAYS } from "@/lib/schemas/orders";

const STORE_SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

/** An active store by slug, or null (unknown, suspended and closed stores alike). */
export async function getPublicStore(client: CatalogClient, slug: string): Promise<PublicStore | null> {
  if (!STORE_SLUG.test(slug)) return null;
  const [store] = await client.$queryRaw<Array<Omit<PublicStore, "selling_since"> & { selling_since: Date }>>`
    SELECT s.id, s.slug, s.name, s.created_at AS selling_since,
           (SELECT coalesce(json_agg(json_build_object(
                     'price_cents', r.price_cents, 'free_over_cents', r.free_over_cents,
                     'min_days', r.min_days, 'max_days', r.max_days, 'handling_days', t.handling_days)
                   ORDER BY r.price_cents, r.min_days, t.id), '[]'::json)
              FROM shipping_templates t
              CROSS JOIN LATERAL (SELECT * FROM shipping_rates r
                                  WHERE r.template_id = t.id AND r.service = 'standard' AND r.region IN ('US', '*')
                                  ORDER BY r.region = 'US' DESC LIMIT 1) r
              WHERE t.store_id = s.id) AS shipping
    FROM stores s
    WHERE s.slug = ${slug} AND s.status = 'active'`;
  if (!store) return null;
  return { ...store, selling_since: store.selling_since.toISOString() };
}
