import { z } from "./zod";
import { CURRENCY } from "@/lib/currency";

/** Listing conditions (spec 2.7), in display order; also the order of the database enum. */
export const CONDITIONS = [
  "new",
  "like_new",
  "very_good",
  "good",
  "acceptable",
  "refurbished",
  "used",
  "for_parts",
] as const;
export type ConditionValue = (typeof CONDITIONS)[number];

export const CONDITION_LABELS: Record<ConditionValue, string> = {
  new: "New",
  like_new: "Like new",
  very_good: "Very good",
  good: "Good",
  acceptable: "Acceptable",
  refurbished: "Refurbished",
  used: "Used",
  for_parts: "For parts or not working",
};

export const SORTS = ["relevance", "price_asc", "price_desc", "newest"] as const;
export type SortValue = (typeof SORTS)[number];

export const SEARCH_LIMITS = {
  qMaxLength: 200,
  pageMax: 500,
  pageSizeMax: 60,
  pageSizeDefault: 24,
  brandsMax: 50,
  centsMax: 2_147_483_647,
} as const;

// ---------------------------------------------------------------------------------------------
// Query parameter building blocks. Query strings arrive as strings (or arrays when repeated);
// scalars given twice are rejected, lists accept repetition and commas.

const digits = z.string().regex(/^\d+$/, { error: "must be a whole number" });

function integerParam(min: number, max: number) {
  // Capped just past max first, so a 30-digit value reads "too big" instead of "not an integer".
  return digits.transform((v) => Math.min(Number(v), max + 1)).pipe(z.number().int().min(min).max(max));
}

function listParam<T extends z.ZodType<string, string>>(item: T, max: number) {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((raw) =>
      (Array.isArray(raw) ? raw : [raw])
        .flatMap((v) => v.split(","))
        .map((v) => v.trim())
        .filter((v) => v.length > 0),
    )
    .pipe(z.array(item).max(max, { error: `must have at most ${max} values` }))
    .transform((values) => [...new Set(values)] as z.output<T>[]);
}

const CATEGORY_SLUG = /^[a-z0-9_]{1,100}$/;
const SLUG = /^[a-z0-9][a-z0-9_-]{0,199}$/;

export const SearchQuery = z
  .object({
    q: z
      .string()
      .refine((v) => [...v].length <= SEARCH_LIMITS.qMaxLength, {
        error: `must be at most ${SEARCH_LIMITS.qMaxLength} characters`,
      })
      .refine((v) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(v), {
        error: "must not contain control characters",
      })
      .transform((v) => v.trim() || undefined)
      .optional()
      .openapi({
        type: "string",
        maxLength: SEARCH_LIMITS.qMaxLength,
        description:
          "Free-text query, as people type it. Products containing every word rank first; when none does, products containing most of the words are returned (header X-Query-Relaxed). A word of 5+ letters that matches nothing is corrected (one typo; two from 9 letters; header X-Corrected-Query), the last word also matches as a prefix, and case, diacritics and full-width forms do not matter. A word written with a leading minus (`-refurbished`) excludes products containing it; other punctuation separates words. Omit to browse.",
        example: "wireless headphones",
      }),
    category: z
      .string()
      .regex(CATEGORY_SLUG, { error: "must be a category slug" })
      .optional()
      .openapi({
        description: "Category slug (from GET /categories); scopes the search to that category and its subtree.",
        example: "electronics",
      }),
    brand: listParam(z.string().regex(SLUG, { error: "must be brand slugs" }), SEARCH_LIMITS.brandsMax)
      .optional()
      .openapi({
        type: "array",
        items: { type: "string" },
        maxItems: SEARCH_LIMITS.brandsMax,
        description: "Brand slugs; repeat the parameter or separate with commas. Matches any of them.",
        param: { style: "form", explode: true },
      }),
    condition: listParam(z.enum(CONDITIONS), CONDITIONS.length)
      .optional()
      .openapi({
        type: "array",
        items: { type: "string", enum: [...CONDITIONS] },
        description:
          "Offer conditions; repeat the parameter or separate with commas. A product matches when one of its purchasable offers has one of them (and satisfies the price range).",
        param: { style: "form", explode: true },
      }),
    price_min_cents: integerParam(0, SEARCH_LIMITS.centsMax)
      .optional()
      .openapi({
        type: "integer",
        minimum: 0,
        maximum: SEARCH_LIMITS.centsMax,
        description: "Lowest offer price, in cents (inclusive).",
      }),
    price_max_cents: integerParam(0, SEARCH_LIMITS.centsMax)
      .optional()
      .openapi({
        type: "integer",
        minimum: 0,
        maximum: SEARCH_LIMITS.centsMax,
        description:
          "Upper bound of the offer price, in cents, EXCLUSIVE, so that a price facet value `{min}-{max}` applies as price_min_cents={min}&price_max_cents={max}. Must be greater than price_min_cents.",
      }),
    sort: z
      .enum(SORTS)
      .default("relevance")
      .openapi({ description: "`relevance` (default): with `q`, titles equal to the query, beginning with it or contained in it first, then by where each word occurs (title 10, brand 4, category names 2, description 1, summed over fields and words), then popularity (rating count); without `q`, popularity. `price_asc`, `price_desc` (by the lowest matching offer price), `newest`. Ties break by product id, so paging is stable." }),
    page: integerParam(1, SEARCH_LIMITS.pageMax)
      .default(1)
      .openapi({ type: "integer", minimum: 1, maximum: SEARCH_LIMITS.pageMax, default: 1, description: "Page number, 1 to 500. A page past the last gives `data: []`." }),
    page_size: digits
      .transform((v) => Math.min(Number(v), SEARCH_LIMITS.pageSizeMax))
      .pipe(z.number().int().min(1))
      .default(SEARCH_LIMITS.pageSizeDefault)
      .openapi({
        type: "integer",
        minimum: 1,
        default: SEARCH_LIMITS.pageSizeDefault,
        description: "Results per page, 1 to 60, default 24. Larger values are clamped to 60 (not rejected); meta.page_size echoes the effective value.",
      }),
  })
  .superRefine((v, ctx) => {
    if (v.price_min_cents !== undefined && v.price_max_cents !== undefined && v.price_max_cents <= v.price_min_cents) {
      ctx.addIssue({ code: "custom", path: ["price_max_cents"], message: "must be greater than price_min_cents" });
    }
  });
export type SearchParams = z.output<typeof SearchQuery>;

export const ProductPath = z.object({
  slug: z.string().openapi({ description: "Product slug, as in the product page path /p/{slug}.", example: "aurora-wireless-headphones" }),
});

// ---------------------------------------------------------------------------------------------
// Response shapes (spec section 2). Field sets are exact.

const BrandRef = z
  .object({ slug: z.string().nullable(), name: z.string() })
  .strict()
  .openapi("BrandRef");

const CategoryRef = z.object({ slug: z.string(), name: z.string() }).strict().openapi("CategoryRef");

const cents = () => z.number().int();

export const ProductCard = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    url: z.string().openapi({ description: "Absolute URL of the product page, {base}/p/{slug}." }),
    image_url: z.string().nullable(),
    brand: BrandRef.nullable(),
    category_breadcrumb: z.array(CategoryRef).openapi({ description: "From the top-level category down to the product's own." }),
    min_price_cents: cents().nullable().openapi({ description: "Lowest price among the offers that match the filters, in cents." }),
    currency: z.string().openapi({ example: CURRENCY }),
    offer_count: z.number().int().openapi({ description: "Number of purchasable offers that match the filters." }),
    rating_avg: z.number().nullable(),
    rating_count: z.number().int(),
  })
  .strict()
  .openapi("ProductCard");
export type ProductCardData = z.output<typeof ProductCard>;

export const FacetEntry = z
  .object({ value: z.string(), label: z.string(), count: z.number().int() })
  .strict()
  .openapi("FacetEntry");
export type FacetEntryData = z.output<typeof FacetEntry>;

export const SearchFacets = z
  .object({
    category: z.array(FacetEntry).openapi({ description: "Children of the current category scope (top-level categories without `category`); value = category slug." }),
    brand: z.array(FacetEntry).openapi({ description: "value = brand slug, label = brand name." }),
    condition: z.array(FacetEntry).openapi({ description: "value = condition enum value, label = its human label." }),
    price: z.array(FacetEntry).openapi({
      description:
        'Price buckets in cents, value `"{min}-{max}"` with max exclusive and an open end allowed (`"0-2500"`, `"50000-"`), label like `"$25 to $50"`; only buckets with count > 0. Apply with price_min_cents / price_max_cents.',
    }),
  })
  .strict()
  .openapi("SearchFacets", {
    description: "Disjunctive facet counts (numbers of matching products): each facet applies every active filter except its own.",
  });

export const SearchMeta = z
  .object({
    page: z.number().int(),
    page_size: z.number().int().openapi({ description: "Effective page size after clamping." }),
    total: z.number().int(),
    page_count: z.number().int(),
    facets: SearchFacets,
    request_id: z.string(),
  })
  .strict()
  .openapi("SearchMeta");

export const ProductImage = z
  .object({ url: z.string(), alt: z.string().nullable(), width: z.number().int().nullable(), height: z.number().int().nullable() })
  .strict()
  .openapi("ProductImage");

export const Offer = z
  .object({
    listing_id: z.string().openapi({ description: "Identifies this seller's offer; use it in POST /cart-links." }),
    price_cents: cents(),
    list_price_cents: cents(),
    currency: z.string(),
    condition: z.enum(CONDITIONS),
    condition_label: z.string(),
    store_name: z.string(),
    store_slug: z.string(),
    in_stock: z.boolean(),
    on_sale: z.boolean().openapi({ description: "list_price_cents is above price_cents." }),
  })
  .strict()
  .openapi("Offer");
export type OfferData = z.output<typeof Offer>;

export const ProductRecord = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    url: z.string(),
    brand: BrandRef.nullable(),
    category_breadcrumb: z.array(CategoryRef),
    gtin: z.string().nullable(),
    mpn: z.string().nullable(),
    attributes: z.record(z.string(), z.unknown()),
    images: z.array(ProductImage),
    rating_avg: z.number().nullable(),
    rating_count: z.number().int(),
    currency: z.string(),
    min_price_cents: cents().nullable(),
    offers: z.array(Offer).openapi({ description: "Currently purchasable offers, cheapest first." }),
    buy_box_listing_id: z.string().nullable().openapi({
      description:
        "listing_id of the buy-box offer: among in-stock offers the lowest landed price (price plus cheapest shipping), `new` preferred over used conditions, ties to the earlier listing. Null when no offer is in stock.",
    }),
  })
  .strict()
  .openapi("ProductRecord");
export type ProductRecordData = z.output<typeof ProductRecord>;

export interface CategoryNodeData {
  slug: string;
  name: string;
  path: string;
  children: CategoryNodeData[];
}
export const CategoryNode: z.ZodType<CategoryNodeData> = z
  .object({
    slug: z.string().openapi({ description: "Usable as the `category` parameter of search." }),
    name: z.string(),
    path: z.string().openapi({ description: "Materialised ltree path: the slugs of the ancestors and the node, joined by dots." }),
    get children(): z.ZodArray<z.ZodType<CategoryNodeData>> {
      return z.array(CategoryNode);
    },
  })
  .strict()
  .openapi("CategoryNode");

export const RequestMeta = z.object({ request_id: z.string() }).strict().openapi("RequestMeta");
export const CategoriesMeta = z
  .object({ count: z.number().int().openapi({ description: "Number of categories in the tree." }), request_id: z.string() })
  .strict()
  .openapi("CategoriesMeta");

// Success bodies (`{ data, meta }`): the API's responses and the MCP tools' structured results.
export const SearchResponse = z.object({ data: z.array(ProductCard), meta: SearchMeta }).strict();
export const ProductResponse = z.object({ data: ProductRecord, meta: RequestMeta }).strict();
export const CategoriesResponse = z.object({ data: z.array(CategoryNode), meta: CategoriesMeta }).strict();
