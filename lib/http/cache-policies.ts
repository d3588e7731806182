/** Shared-cache lifetimes (spec section 8). */
export const CACHE_POLICIES = {
  catalog: "public, s-maxage=60",
  categories: "public, s-maxage=300",
  document: "public, s-maxage=300",
  crawler: "public, s-maxage=3600",
  /** Generated product images: the same URL always shows the same product (lib/catalog/product-image.ts). */
  image: "public, max-age=86400, immutable",
  /** Uploaded pictures (lib/media/): a key is never reused, so its bytes never change. */
  media: "public, max-age=31536000, immutable",
} as const;
export type CachePolicy = keyof typeof CACHE_POLICIES;
