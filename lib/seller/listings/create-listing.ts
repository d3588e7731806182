import type { DbClient } from "@/lib/db";
import { productImagePath } from "@/lib/catalog/product-image";
import { slugify } from "@/lib/catalog/slug";
import { randomBytes } from "node:crypto";
import { AppError } from "@/lib/errors";
import type { CreateListingInput, ListingData } from "@/lib/schemas/seller/listings";
import { isUuid } from "@/lib/ids";
import { isStoreTemplate, readListing, skuTaken, templateNotFound } from "./listing-row";

type NewProductInput = NonNullable<CreateListingInput["product"]>;

/**
 * POST /listings: a new `draft` listing of the store, on an existing product (`product_id` or
 * `gtin`) or on a product it describes (`product`), created here unlisted and remembered as the
 * store's, so that its first published listing lists it. Runs in the caller's transaction.
 */
/** `picture`: a new product's uploaded picture (lib/media savePicture), its first image. */
export async function createListing(db: DbClient, storeId: string, input: CreateListingInput, options: { picture?: { path: string; width: number; height: number } } = {}): Promise<ListingData> {
  const productId = await resolveProduct(db, storeId, input, options.picture);
  if (input.shipping_template_id !== undefined && !(await isStoreTemplate(db, storeId, input.shipping_template_id))) {
    throw templateNotFound(input.shipping_template_id);
  }
  // ON CONFLICT: a SKU taken meanwhile by a concurrent request answers 409, not a failed statement.
  const inserted = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, currency, quantity,
                          allow_backorder, shipping_template_id, status)
    VALUES (${storeId}::uuid, ${productId}::uuid, ${input.sku}, ${input.condition}::listing_condition, ${input.price_cents},
            ${input.list_price_cents ?? input.price_cents}, ${input.currency}, ${input.quantity}, ${input.allow_backorder},
            ${input.shipping_template_id ?? null}::uuid, 'draft')
    ON CONFLICT (store_id, sku) DO NOTHING
    RETURNING id::text AS id`;
  if (!inserted[0]) throw skuTaken(input.sku);
  return readListing(db, storeId, inserted[0].id);
}

async function resolveProduct(db: DbClient, storeId: string, input: CreateListingInput, picture?: { path: string; width: number; height: number }): Promise<string> {
  if (input.product_id !== undefined) {
    const id = input.product_id;
    const rows = isUuid(id) ? await db.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM products WHERE id = ${id}::uuid` : [];
    if (!rows[0]) throw productNotFound(`No product has the id '${id}'.`, "product_id");
    return rows[0].id;
  }
  if (input.gtin !== undefined) {
    const rows = await db.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM products WHERE gtin = ${input.gtin}`;
    if (!rows[0]) throw productNotFound(`No product has the GTIN '${input.gtin}'; describe it with \`product\` instead.`, "gtin");
    return rows[0].id;
  }
  return createProduct(db, storeId, input.product!, picture);
}

// decisions.md: an unknown product named in the create body is a 400 `product_not_found`.
function productNotFound(message: string, param: string): AppError {
  return new AppError("product_not_found", message, param, { asInvalidRequest: true });
}

async function createProduct(db: DbClient, storeId: string, product: NewProductInput, picture?: { path: string; width: number; height: number }): Promise<string> {
  const [category] = await db.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM categories WHERE slug = ${product.category} AND active`;
  if (!category) throw new AppError("category_not_found", `No active category has the slug '${product.category}'.`, "product.category");
  let brandId: string | null = null;
  if (product.brand !== undefined) {
    const [brand] = await db.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM brands WHERE slug = ${product.brand}`;
    if (!brand) throw new AppError("brand_not_found", `No brand has the slug '${product.brand}'.`, "product.brand");
    brandId = brand.id;
  }
  if (product.gtin !== undefined && (await gtinTaken(db, product.gtin))) throw gtinTakenError(product.gtin);

  const base = slugify(product.title, 80) || "product";
  for (let attempt = 0; attempt < 8; attempt++) {
    const slug = attempt === 0 ? base : `${base}-${randomBytes(3).toString("hex")}`;
    // ON CONFLICT DO NOTHING: a taken slug (or a GTIN taken meanwhile) is answered here rather
    // than by an error that would abort the caller's transaction.
    const [row] = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO products (slug, title, description, brand_id, category_id, gtin, mpn, attributes, created_by_store_id)
      VALUES (${slug}, ${product.title}, ${product.description ?? null}, ${brandId}::uuid, ${category.id}::uuid,
              ${product.gtin ?? null}, ${product.mpn ?? null}, ${JSON.stringify(product.attributes ?? {})}::jsonb, ${storeId}::uuid)
      ON CONFLICT DO NOTHING
      RETURNING id::text AS id`;
    if (row) {
      // Without a picture of its own, the product gets its generated one, as the seed's do.
      const given: { url: string; alt?: string; width?: number; height?: number }[] = [
        ...(picture ? [{ url: picture.path, width: picture.width, height: picture.height }] : []),
        ...(product.images ?? []),
      ];
      const images = given.length ? given : [{ url: productImagePath(slug, 1) }];
      await db.$executeRaw`
        INSERT INTO product_images (product_id, url, alt, position, width, height)
        SELECT ${row.id}::uuid, i.url, i.alt, i.position::int, i.width, i.height
        FROM jsonb_to_recordset(${JSON.stringify(images.map((image: (typeof given)[number], position) => ({ url: image.url, alt: image.alt ?? null, position, width: image.width ?? null, height: image.height ?? null })))}::jsonb)
          AS i(url text, alt text, position int, width int, height int)`;
      return row.id;
    }
    if (product.gtin !== undefined && (await gtinTaken(db, product.gtin))) throw gtinTakenError(product.gtin);
  }
  throw new Error("no free product slug after 8 attempts");
}

async function gtinTaken(db: DbClient, gtin: string): Promise<boolean> {
  return (await db.$queryRaw<unknown[]>`SELECT 1 FROM products WHERE gtin = ${gtin}`).length > 0;
}

function gtinTakenError(gtin: string): AppError {
  return new AppError("gtin_taken", `A product with the GTIN '${gtin}' already exists; attach to it with \`gtin\` instead of \`product\`.`, "product.gtin");
}

