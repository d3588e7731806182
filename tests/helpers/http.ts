/**
 * HTTP helpers for the contract tests: one request function against the app started by
 * tests/setup/global.ts, and assertions for the envelopes every public response shares.
 */
import { readFile } from "node:fs/promises";
import { expect, inject } from "vitest";

export const API_PREFIX = "/api/public/v1";

export function baseUrl(): string {
  return inject("BASE_URL");
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or null when the body is empty or not JSON. */
  json: T;
  text: string;
}

export interface ApiOptions {
  /**
   * The public API rate-limits per client IP (first hop of X-Forwarded-For). Unless a test sets
   * that header itself, every request comes from its own random private address, so the many
   * requests of the suite never share a bucket (and never share one with an earlier run, since
   * the buckets may live in Redis).
   */
  clientIp?: string;
}

export function randomClientIp(): string {
  const b = () => Math.floor(Math.random() * 254) + 1;
  return `10.${b()}.${b()}.${b()}`;
}

/**
 * Request `path` (relative to the public API prefix unless it starts with /api/ or is absolute).
 */
export async function api<T = any>(
  path: string,
  init: RequestInit = {},
  opts: ApiOptions = {},
): Promise<ApiResponse<T>> {
  const url = /^https?:\/\//.test(path)
    ? path
    : baseUrl() + (path.startsWith("/api/") ? path : API_PREFIX + path);
  const headers = new Headers(init.headers);
  if (!headers.has("X-Forwarded-For")) headers.set("X-Forwarded-For", opts.clientIp ?? randomClientIp());
  if (!headers.has("User-Agent")) headers.set("User-Agent", "marketplace-contract-tests/1.0");
  const res = await fetch(url, { ...init, headers, redirect: "manual", signal: AbortSignal.timeout(25_000) });
  const text = await res.text();
  let json: any = null;
  if (text.length > 0) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** Build a query string; array values are sent as repeated parameters. */
export function qs(params: Record<string, string | number | (string | number)[] | undefined>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) sp.append(k, String(x));
    else sp.append(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : "";
}

export function search(params: Parameters<typeof qs>[0] = {}, init?: RequestInit) {
  return api(`/search${qs(params)}`, init);
}

export function expectExactKeys(obj: unknown, keys: readonly string[], where = "object") {
  expect(obj, `${where} should be an object`).toBeTypeOf("object");
  expect(obj, `${where} should not be null`).not.toBeNull();
  expect(Array.isArray(obj), `${where} should not be an array`).toBe(false);
  expect(Object.keys(obj as object).sort(), `field set of ${where}`).toEqual([...keys].sort());
}

/** `{ data, meta }` with meta.request_id equal to the X-Request-Id header. */
export function expectSuccessEnvelope(res: ApiResponse, status = 200) {
  expect(res.status, `status (body: ${res.text.slice(0, 500)})`).toBe(status);
  expectExactKeys(res.json, ["data", "meta"], "success envelope");
  expect(res.json.meta.request_id).toBeTypeOf("string");
  expect(res.json.meta.request_id.length).toBeGreaterThan(0);
  expect(res.headers.get("x-request-id")).toBe(res.json.meta.request_id);
}

export interface ExpectedError {
  status: number;
  type: string;
  code: string;
  /** When given, `error.param` must be present and equal; otherwise it must be absent. */
  param?: string;
  /** Only for POST /cart-links with no purchasable line. */
  rejected?: boolean;
}

export function expectErrorEnvelope(res: ApiResponse, e: ExpectedError) {
  expect(res.status, `status (body: ${res.text.slice(0, 500)})`).toBe(e.status);
  expectExactKeys(res.json, ["error"], "error envelope");
  const err = res.json.error;
  const keys = ["type", "code", "message", "request_id"];
  if (e.param !== undefined) keys.push("param");
  if (e.rejected) keys.push("rejected");
  expectExactKeys(err, keys, "error object");
  expect(err.type).toBe(e.type);
  expect(err.code).toBe(e.code);
  if (e.param !== undefined) expect(err.param).toBe(e.param);
  expect(err.message).toBeTypeOf("string");
  expect(err.message.length).toBeGreaterThan(0);
  expect(err.request_id).toBeTypeOf("string");
  expect(err.request_id.length).toBeGreaterThan(0);
  expect(res.headers.get("x-request-id")).toBe(err.request_id);
}

/** A 400 invalid_request_error / parameter_invalid naming `param`. */
export function expectParamInvalid(res: ApiResponse, param: string) {
  expectErrorEnvelope(res, { status: 400, type: "invalid_request_error", code: "parameter_invalid", param });
}

// ---------------------------------------------------------------------------------------------
// Inventory leak scan
// ---------------------------------------------------------------------------------------------

/**
 * Words that, as a part of a key name (split at `_`, `-` and camelCase), smell of an inventory
 * count or one of its disguises. Whole words, so that `country` or `discount` do not match.
 */
const INVENTORY_WORDS = new Set([
  "quantity",
  "quantities",
  "qty",
  "stock",
  "stocks",
  "stocked",
  "inventory",
  "available",
  "availability",
  "units",
  "unit",
  "onhand",
  "hand",
  "remaining",
  "reserved",
  "backorder",
  "backorders",
  "backorderable",
  "count",
  "counts",
  "sold",
  "left",
  "depth",
  "level",
  "levels",
]);

function looksLikeInventoryKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some((w) => INVENTORY_WORDS.has(w));
}

/**
 * Where a count-like key is legitimate, by exact path (array indices written as `[]`):
 * facet entries, the search/category meta and the product/card aggregate counts, plus the
 * boolean `in_stock` of an offer, which is the one stock signal the spec allows.
 */
const ALLOWED_PATHS = new Set([
  "meta.count",
  "meta.total",
  "meta.page_count",
  "meta.facets.category[].count",
  "meta.facets.brand[].count",
  "meta.facets.condition[].count",
  "meta.facets.price[].count",
  "data[].offer_count",
  "data[].rating_count",
  "data.rating_count",
  "data.offers[].in_stock",
]);

export interface Leak {
  path: string;
  value: unknown;
}

/** Walks a response body and returns every key that looks like an inventory count. */
export function findInventoryLeak(json: unknown): Leak[] {
  const leaks: Leak[] = [];
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) {
      node.forEach((x) => walk(x, `${path}[]`));
      return;
    }
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      const p = path ? `${path}.${key}` : key;
      if (looksLikeInventoryKey(key) && !ALLOWED_PATHS.has(p)) leaks.push({ path: p, value });
      walk(value, p);
    }
  };
  walk(json, "");
  return leaks;
}

// ---------------------------------------------------------------------------------------------
// Small utilities
// ---------------------------------------------------------------------------------------------

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export interface CategoryNode {
  slug: string;
  name: string;
  path: string;
  children: CategoryNode[];
}

export function flattenCategories(nodes: CategoryNode[]): CategoryNode[] {
  return nodes.flatMap((n) => [n, ...flattenCategories(n.children ?? [])]);
}

export const CARD_KEYS = [
  "id",
  "slug",
  "title",
  "url",
  "image_url",
  "brand",
  "category_breadcrumb",
  "min_price_cents",
  "currency",
  "offer_count",
  "rating_avg",
  "rating_count",
] as const;

export const SEARCH_META_KEYS = ["page", "page_size", "total", "page_count", "facets", "request_id"] as const;

export const PRODUCT_KEYS = [
  "id",
  "slug",
  "title",
  "description",
  "url",
  "brand",
  "category_breadcrumb",
  "gtin",
  "mpn",
  "attributes",
  "images",
  "rating_avg",
  "rating_count",
  "currency",
  "min_price_cents",
  "offers",
  "buy_box_listing_id",
] as const;

export const OFFER_KEYS = [
  "listing_id",
  "price_cents",
  "list_price_cents",
  "currency",
  "condition",
  "condition_label",
  "store_name",
  "store_slug",
  "in_stock",
  "on_sale",
] as const;

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

/**
 * The one log line a server wrote for `requestId` (its one-JSON-line-per-request log, by default
 * the suite's app's), waiting for it to be written: a loaded machine may flush it late, so the
 * wait ends on finding it, and the time limit only stops a run where it never comes.
 */
export async function serverLogLine(requestId: string, file: string = inject("SERVER_LOG"), timeoutMs = 30_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readFile(file, "utf8")).split("\n").filter((l) => l.includes(requestId));
    if (found.length > 0) {
      expect(found, `exactly one log line for ${requestId}`).toHaveLength(1);
      return JSON.parse(found[0]!);
    }
    if (Date.now() > deadline) throw new Error(`no log line for ${requestId} in ${file}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
