/**
 * Helpers for the seller listings, inventory and feed tests: the wire field sets of decisions.md,
 * the seeded ids they start from, and a listing made through the API in one call.
 */
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { expect } from "vitest";
import { expectExactKeys } from "./http";
import { sellerRequest, type SellerResponse, storeIdOf } from "./seller";

export const LISTING_KEYS = [
  "id",
  "object",
  "product_id",
  "product_slug",
  "sku",
  "condition",
  "price_cents",
  "list_price_cents",
  "currency",
  "quantity",
  "allow_backorder",
  "shipping_template_id",
  "status",
  "created_at",
  "updated_at",
  "published_at",
] as const;

export const STOCK_ADJUSTMENT_KEYS = ["id", "object", "listing_id", "delta", "quantity_after", "reason", "created_at"] as const;

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const uniqueSku = (prefix = "T") => `${prefix}-${randomBytes(6).toString("hex")}`;

/** A success envelope `{ data, meta: { request_id } }` whose request id is the X-Request-Id. */
export function expectItem(res: SellerResponse, status = 200) {
  expect(res.status, `status (body: ${res.text.slice(0, 400)})`).toBe(status);
  expectExactKeys(res.json, ["data", "meta"], "envelope");
  expectExactKeys(res.json.meta, ["request_id"], "meta");
  expect(res.headers.get("x-request-id")).toBe(res.json.meta.request_id);
  return res.json.data;
}

/** A listing object: exactly the fields of decisions.md, each of its type. */
export function expectListing(listing: any) {
  expectExactKeys(listing, LISTING_KEYS, "listing");
  expect(listing.object).toBe("listing");
  expect(listing.id).toMatch(UUID);
  expect(listing.product_id).toMatch(UUID);
  expect(listing.product_slug).toBeTypeOf("string");
  expect(listing.currency).toBe("USD");
  for (const field of ["price_cents", "list_price_cents", "quantity"]) expect(Number.isInteger(listing[field]), field).toBe(true);
  expect(listing.allow_backorder).toBeTypeOf("boolean");
  expect(["draft", "active", "inactive", "archived"]).toContain(listing.status);
  expect(listing.created_at).toMatch(ISO_MS);
  expect(listing.updated_at).toMatch(ISO_MS);
  if (listing.published_at !== null) expect(listing.published_at).toMatch(ISO_MS);
  if (listing.shipping_template_id !== null) expect(listing.shipping_template_id).toMatch(UUID);
}

export interface SeedIds {
  storeA: string;
  storeB: string;
  templateA: string;
  templateB: string;
  /** A publicly listed fixture product (fixture-mixed-offers) and its GTIN. */
  productId: string;
  productGtin: string;
  /** A listing of store B (MIX-NEW-B). */
  listingB: string;
}

export async function seedIds(pool: pg.Pool): Promise<SeedIds> {
  const storeA = await storeIdOf(pool, "fixture-store-a");
  const storeB = await storeIdOf(pool, "fixture-store-b");
  const template = async (storeId: string) =>
    (await pool.query<{ id: string }>("SELECT id FROM shipping_templates WHERE store_id = $1 ORDER BY created_at, id LIMIT 1", [storeId])).rows[0]!.id;
  const product = (await pool.query<{ id: string; gtin: string }>("SELECT id, gtin FROM products WHERE slug = 'fixture-mixed-offers'")).rows[0]!;
  const listingB = (await pool.query<{ id: string }>("SELECT id FROM listings WHERE store_id = $1 AND sku = 'MIX-NEW-B'", [storeB])).rows[0]!.id;
  return { storeA, storeB, templateA: await template(storeA), templateB: await template(storeB), productId: product.id, productGtin: product.gtin, listingB };
}

/** Creates a listing through the API (201 asserted) and returns it. */
export async function createListingVia(baseUrl: string, key: string, body: Record<string, unknown>): Promise<any> {
  const res = await sellerRequest(baseUrl, "POST", "/api/v1/listings", { key, body });
  expect(res.status, `create listing (body: ${res.text.slice(0, 400)})`).toBe(201);
  return res.json.data;
}
