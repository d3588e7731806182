import type { CatalogClient } from "@/lib/db";
import { formatCents } from "./money";

export interface PriceBucket {
  bit: number;
  min: number;
  max: number | null;
  value: string;
  label: string;
}

/** Buckets from lower bounds (USD cents): value "{min}-{max}" (max exclusive), "{min}-" for the last. */
export function priceBuckets(bounds: number[]): PriceBucket[] {
  return bounds.map((min, i) => {
    const max = bounds[i + 1] ?? null;
    const label =
      max === null
        ? `${formatCents(min, { whole: true })} & up`
        : min === 0
          ? `Under ${formatCents(max, { whole: true })}`
          : `${formatCents(min, { whole: true })} to ${formatCents(max, { whole: true })}`;
    return { bit: 1 << i, min, max, value: `${min}-${max ?? ""}`, label };
  });
}

let cached: Promise<PriceBucket[]> | undefined;

/** The bucket bounds are defined once, in the database (catalog_price_bucket_bounds()). */
export function loadPriceBuckets(client: CatalogClient): Promise<PriceBucket[]> {
  cached ??= client
    .$queryRaw<{ bounds: number[] }[]>`SELECT catalog_price_bucket_bounds() AS bounds`
    .then((rows) => priceBuckets(rows[0]!.bounds))
    .catch((err) => {
      cached = undefined;
      throw err;
    });
  return cached;
}
