/**
 * `Aurora Wireless Headphones` -> `aurora-wireless-headphones`: lower-case ASCII letters, digits
 * and `-`, diacritics dropped, `&` spelled out; cut to `maxLength` without a trailing `-`.
 * Product and brand slugs (the seed's and a seller's new products alike).
 */
export function slugify(text: string, maxLength = Number.POSITIVE_INFINITY): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/&/g, " and ")
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, maxLength)
    .replace(/-+$/, "");
}
