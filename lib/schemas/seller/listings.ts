import { exactlyOneOf } from "../one-of";
import { z } from "../zod";
import { Cursor, Limit, Timestamp } from "./common";
import { CURRENCY } from "@/lib/currency";

/**
 * Listings and inventory of the seller API (decisions.md "Seller API"): the wire objects and the
 * request schemas. Every string and number is bounded; the bounds live in LISTING_LIMITS and are
 * stated in each field's description, so openapi.json says what the validator enforces.
 */
export const LISTING_LIMITS = {
  skuMax: 64,
  priceMin: 1,
  priceMax: 100_000_000,
  quantityMax: 1_000_000,
  titleMax: 200,
  descriptionMax: 5_000,
  slugMax: 100,
  gtinPattern: "8, 12, 13 or 14 digits",
  mpnMax: 64,
  attributesMax: 50,
  attributeKeyMax: 64,
  attributeValueMax: 500,
  imagesMax: 10,
  imageUrlMax: 2_048,
  imageAltMax: 300,
  adjustmentsMin: 1,
  adjustmentsMax: 100,
} as const;

export const LISTING_CONDITIONS = ["new", "like_new", "very_good", "good", "acceptable", "refurbished", "used", "for_parts"] as const;
export const LISTING_STATUSES = ["draft", "active", "inactive", "archived"] as const;
export const SETTABLE_STATUSES = ["active", "inactive", "archived"] as const;
export type ListingStatusValue = (typeof LISTING_STATUSES)[number];

// A lone UTF-16 surrogate cannot be stored as UTF-8; C0/C1 control characters (NUL included,
// which PostgreSQL text cannot hold) are never part of a name or SKU.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_BUT_NEWLINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const codePoints = (s: string) => [...s].length;

/** A single-line text of 1..max characters (Unicode code points), no control characters. */
export function line(max: number, what = "characters") {
  return z
    .string({ error: "must be a string" })
    .refine((s) => !LONE_SURROGATE.test(s), { error: "must be valid Unicode text" })
    .refine((s) => !CONTROL.test(s), { error: "must not contain control characters" })
    .refine((s) => codePoints(s) >= 1, { error: "must not be empty" })
    .refine((s) => codePoints(s) <= max, { error: `must be at most ${max} ${what}` })
    .openapi({ type: "string", minLength: 1, maxLength: max });
}

/** A multi-line text (newlines and tabs allowed) of at most `max` characters. */
function text(max: number) {
  return z
    .string({ error: "must be a string" })
    .refine((s) => !LONE_SURROGATE.test(s), { error: "must be valid Unicode text" })
    .refine((s) => !CONTROL_BUT_NEWLINES.test(s), { error: "must not contain control characters other than newlines and tabs" })
    .refine((s) => codePoints(s) <= max, { error: `must be at most ${max} characters` })
    .openapi({ type: "string", maxLength: max });
}

function integer(min: number, max: number) {
  return z
    .number({ error: "must be an integer" })
    .int({ error: "must be an integer" })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });
}

const Sku = line(LISTING_LIMITS.skuMax).openapi({
  description: `Your stock-keeping unit: 1 to ${LISTING_LIMITS.skuMax} characters (Unicode allowed, no control characters), unique within your store.`,
  example: "HEADPHONES-BLK-01",
});
const Condition = z.enum(LISTING_CONDITIONS, { error: `must be one of ${LISTING_CONDITIONS.join(", ")}` });
const PriceCents = integer(LISTING_LIMITS.priceMin, LISTING_LIMITS.priceMax).openapi({
  description: `Price in US cents, ${LISTING_LIMITS.priceMin} to ${LISTING_LIMITS.priceMax.toLocaleString("en-US")}.`,
  example: 12999,
});
const ListPriceCents = integer(LISTING_LIMITS.priceMin, LISTING_LIMITS.priceMax).openapi({
  description: "Reference (list) price in US cents; never below `price_cents`. Defaults to `price_cents`.",
  example: 14999,
});
const Quantity = integer(0, LISTING_LIMITS.quantityMax).openapi({
  description: `Units in stock, 0 to ${LISTING_LIMITS.quantityMax.toLocaleString("en-US")}.`,
  example: 10,
});
const Gtin = z
  .string({ error: "must be a string" })
  .regex(/^(?:[0-9]{8}|[0-9]{12,14})$/, { error: `must be a GTIN: ${LISTING_LIMITS.gtinPattern}` })
  .openapi({ description: `GTIN (EAN/UPC): ${LISTING_LIMITS.gtinPattern}.`, example: "4006381333931" });
const Slug = z
  .string({ error: "must be a string" })
  .regex(new RegExp(`^[a-z0-9][a-z0-9_-]{0,${LISTING_LIMITS.slugMax - 1}}$`), { error: "must be a slug (lower-case letters, digits, '-' and '_')" });
const ShippingTemplateRef = z.string({ error: "must be a string" }).max(100, { error: "must be a shipping template id" });

const AttributeValue = z.union([
  z.string({ error: "must be a string, number or boolean" }).max(LISTING_LIMITS.attributeValueMax, { error: `must be at most ${LISTING_LIMITS.attributeValueMax} characters` })
    .refine((s) => !LONE_SURROGATE.test(s) && !CONTROL.test(s), { error: "must not contain control characters" }),
  z.number().finite(),
  z.boolean(),
], { error: "must be a string, number or boolean" });

const Attributes = z
  .record(line(LISTING_LIMITS.attributeKeyMax), AttributeValue, { error: "must be an object" })
  .refine((a) => Object.keys(a).length <= LISTING_LIMITS.attributesMax, { error: `must have at most ${LISTING_LIMITS.attributesMax} attributes` })
  .openapi({
    maxProperties: LISTING_LIMITS.attributesMax,
    description: `Product attributes shown on its page and used by facets: at most ${LISTING_LIMITS.attributesMax} entries; names 1 to ${LISTING_LIMITS.attributeKeyMax} characters; values strings (at most ${LISTING_LIMITS.attributeValueMax} characters), numbers or booleans.`,
    example: { color: "Black", wireless: true },
  });

const ProductImageInput = z
  .object({
    url: z
      .string({ error: "must be a string" })
      .max(LISTING_LIMITS.imageUrlMax, { error: `must be at most ${LISTING_LIMITS.imageUrlMax} characters` })
      .regex(/^https:\/\/[^\s/?#]+[^\s]*$/, { error: "must be an https URL" })
      .openapi({ description: `An https URL of the image, at most ${LISTING_LIMITS.imageUrlMax} characters.` }),
    alt: line(LISTING_LIMITS.imageAltMax).optional().openapi({ description: `Alternative text, 1 to ${LISTING_LIMITS.imageAltMax} characters.` }),
  })
  .strict()
  .openapi("ProductImageInput");

export const NewProduct = z
  .object({
    title: line(LISTING_LIMITS.titleMax).openapi({ description: `1 to ${LISTING_LIMITS.titleMax} characters; the product's slug is made from it.`, example: "Aurora Wireless Headphones" }),
    description: text(LISTING_LIMITS.descriptionMax).optional().openapi({ description: `Up to ${LISTING_LIMITS.descriptionMax} characters; newlines allowed.` }),
    brand: Slug.optional().openapi({ description: "Brand slug (as in the public search's `brand` facet)." }),
    category: Slug.openapi({ description: "Slug of an active category (GET /api/public/v1/categories)." }),
    gtin: Gtin.optional(),
    mpn: line(LISTING_LIMITS.mpnMax).optional().openapi({ description: `Manufacturer part number, 1 to ${LISTING_LIMITS.mpnMax} characters.` }),
    attributes: Attributes.optional(),
    images: z
      .array(ProductImageInput, { error: "must be an array" })
      .max(LISTING_LIMITS.imagesMax, { error: `must have at most ${LISTING_LIMITS.imagesMax} images` })
      .optional()
      .openapi({ description: `Up to ${LISTING_LIMITS.imagesMax} images, first is the main one.` }),
  })
  .strict()
  .openapi("NewProduct", { description: "A product not yet in the catalog; it becomes publicly listed when one of its listings is first published." });

export const CreateListing = z
  .object({
    product_id: z.string({ error: "must be a string" }).max(100, { error: "must be a product id" }).optional().openapi({ description: "Id of an existing product. Exactly one of `product_id`, `gtin`, `product`." }),
    gtin: Gtin.optional().openapi({ description: "GTIN of an existing product. Exactly one of `product_id`, `gtin`, `product`." }),
    product: NewProduct.optional().openapi({ description: "A new product. Exactly one of `product_id`, `gtin`, `product`." }),
    sku: Sku,
    condition: Condition,
    price_cents: PriceCents,
    list_price_cents: ListPriceCents.optional(),
    currency: z.literal(CURRENCY, { error: `must be "${CURRENCY}"` }).optional().default(CURRENCY).openapi({ description: `Only "${CURRENCY}".` }),
    quantity: Quantity.optional().default(0),
    allow_backorder: z.boolean({ error: "must be a boolean" }).optional().default(false).openapi({ description: "Sell while out of stock." }),
    shipping_template_id: ShippingTemplateRef.optional().openapi({ description: "A shipping template of your store; needed to publish." }),
  })
  .strict()
  .superRefine((body, ctx) => {
    exactlyOneOf(body, ctx, ["product_id", "gtin", "product"]);
    if (body.list_price_cents !== undefined && body.list_price_cents < body.price_cents) {
      ctx.addIssue({ code: "custom", path: ["list_price_cents"], message: "must not be below price_cents" });
    }
  })
  .openapi("CreateListing");
export type CreateListingInput = z.output<typeof CreateListing>;

export const UpdateListing = z
  .object({
    sku: Sku.optional(),
    condition: Condition.optional(),
    price_cents: PriceCents.optional(),
    list_price_cents: ListPriceCents.optional(),
    quantity: Quantity.optional().openapi({ description: `Units in stock, 0 to ${LISTING_LIMITS.quantityMax.toLocaleString("en-US")}; a change is recorded as a stock adjustment with reason \`update\`.` }),
    allow_backorder: z.boolean({ error: "must be a boolean" }).optional(),
    shipping_template_id: ShippingTemplateRef.nullable().optional().openapi({ description: "A shipping template of your store; null removes it (only while the listing is a draft)." }),
  })
  .strict()
  .openapi("UpdateListing", { description: "Any of the fields; those left out keep their value. `list_price_cents` may never end up below `price_cents`." });
export type UpdateListingInput = z.output<typeof UpdateListing>;

export const SetListingStatus = z
  .object({
    status: z.enum(SETTABLE_STATUSES, { error: `must be one of ${SETTABLE_STATUSES.join(", ")}` }).openapi({
      description: "`active` <-> `inactive`; any -> `archived` (terminal). A draft becomes active only through publish.",
    }),
  })
  .strict()
  .openapi("SetListingStatus");
export type SetListingStatusInput = z.output<typeof SetListingStatus>;

export const Listing = z
  .object({
    id: z.string().openapi({ format: "uuid" }),
    object: z.literal("listing"),
    product_id: z.string().openapi({ format: "uuid" }),
    product_slug: z.string().openapi({ description: "The product's slug: its public page is /p/{product_slug}." }),
    sku: z.string(),
    condition: Condition,
    price_cents: z.number().int(),
    list_price_cents: z.number().int(),
    currency: z.literal(CURRENCY),
    quantity: z.number().int(),
    allow_backorder: z.boolean(),
    shipping_template_id: z.string().nullable().openapi({ format: "uuid" }),
    status: z.enum(LISTING_STATUSES),
    created_at: Timestamp,
    updated_at: Timestamp,
    published_at: Timestamp.nullable().openapi({ description: "First publish; null until then, kept after." }),
  })
  .strict()
  .openapi("Listing");
export type ListingData = z.output<typeof Listing>;

// updated_since: Unix seconds, or an ISO-8601 date or date-time (UTC `Z` or an offset).
const UNIX_SECONDS = /^[0-9]{1,11}$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/i;

export const UpdatedSince = z
  .string()
  .transform((value, ctx) => {
    let ms = Number.NaN;
    if (UNIX_SECONDS.test(value)) ms = Number(value) * 1000;
    else if (ISO_8601.test(value) && validFields(value)) {
      const normalised = value.replace(" ", "T").replace(/\.(\d{3})\d+/, ".$1").replace(/([+-]\d{2})(\d{2})$/, "$1:$2");
      ms = Date.parse(/T/i.test(normalised) ? normalised : `${normalised}T00:00:00Z`);
    }
    if (!Number.isFinite(ms) || ms < 0 || ms > Date.UTC(9999, 11, 31)) {
      ctx.addIssue({ code: "custom", message: "must be an ISO-8601 date-time (2026-11-29T12:00:00Z) or Unix seconds" });
      return z.NEVER;
    }
    return new Date(ms);
  })
  .optional()
  .openapi({
    type: "string",
    description: "The sync feed: every listing updated at or after this instant (ISO-8601 or Unix seconds), archived included, in commit order.",
    example: "2026-11-29T12:00:00Z",
  });

/** Month, day, hour, minute and second within range (Date.parse rolls 2026-02-31 over to March). */
function validFields(value: string): boolean {
  const [, y, mo, d, h = "0", mi = "0", sec = "0"] = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/i.exec(value) ?? [];
  const days = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate();
  return Number(mo) >= 1 && Number(mo) <= 12 && Number(d) >= 1 && Number(d) <= days && Number(h) <= 23 && Number(mi) <= 59 && Number(sec) <= 59;
}

export const ListListingsQuery = z.object({
  limit: Limit,
  cursor: Cursor,
  status: z
    .enum(LISTING_STATUSES, { error: `must be one of ${LISTING_STATUSES.join(", ")}` })
    .optional()
    .openapi({ description: "Only listings in this state (without `updated_since`; `archived` lists archived ones)." }),
  updated_since: UpdatedSince,
});
export type ListListingsQueryData = z.output<typeof ListListingsQuery>;

// Inventory -------------------------------------------------------------------------------------

export const InventoryAdjustment = z
  .object({
    listing_id: z.string({ error: "must be a string" }).max(100, { error: "must be a listing id" }).openapi({ description: "A listing of your store." }),
    delta: integer(-LISTING_LIMITS.quantityMax, LISTING_LIMITS.quantityMax).optional().openapi({
      description: `Change of the quantity, -${LISTING_LIMITS.quantityMax.toLocaleString("en-US")} to ${LISTING_LIMITS.quantityMax.toLocaleString("en-US")}. Exactly one of \`delta\`, \`set_quantity\`.`,
    }),
    set_quantity: Quantity.optional().openapi({ description: "The new quantity. Exactly one of `delta`, `set_quantity`." }),
    expected_quantity: Quantity.optional().openapi({ description: "Compare-and-set: the quantity you expect the listing to hold before this adjustment." }),
  })
  .strict()
  .superRefine((a, ctx) => {
    exactlyOneOf(a, ctx, ["delta", "set_quantity"]);
  })
  .openapi("InventoryAdjustment");

export const InventoryBatch = z
  .object({
    adjustments: z
      .array(InventoryAdjustment, { error: "must be an array" })
      .min(LISTING_LIMITS.adjustmentsMin, { error: `must have at least ${LISTING_LIMITS.adjustmentsMin} adjustment` })
      .max(LISTING_LIMITS.adjustmentsMax, { error: `must have at most ${LISTING_LIMITS.adjustmentsMax} adjustments` })
      .openapi({ description: `${LISTING_LIMITS.adjustmentsMin} to ${LISTING_LIMITS.adjustmentsMax} adjustments, applied in order, all or none.` }),
  })
  .strict()
  .openapi("InventoryBatch");
export type InventoryBatchInput = z.output<typeof InventoryBatch>;

export const StockAdjustment = z
  .object({
    id: z.string().openapi({ format: "uuid" }),
    object: z.literal("stock_adjustment"),
    listing_id: z.string().openapi({ format: "uuid" }),
    delta: z.number().int(),
    quantity_after: z.number().int(),
    reason: z.enum(["batch", "update"]).openapi({ description: "`batch` (POST /inventory/batch) or `update` (a quantity set by PATCH /listings/{id})." }),
    created_at: Timestamp,
  })
  .strict()
  .openapi("StockAdjustment");
export type StockAdjustmentData = z.output<typeof StockAdjustment>;
