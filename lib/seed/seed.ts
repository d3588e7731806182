/**
 * Deterministic seed: category tree, brands, stores with shipping and owners, the demo accounts
 * and named fixtures of docs/fixtures.md, help articles and N generated products with images
 * and listings.
 *
 * Same N, same data (ids included): every record comes from a PRNG seeded by its own key
 * (product i is the same whatever N is), and every timestamp is derived from BASE_DATE; only
 * the salt of the one password hash differs between runs.
 * Rows go in as multi-row INSERTs of 1000 products (plus their images and listings), because
 * product_search is maintained by statement-level triggers on products and listings.
 *
 * Called by `npm run db:seed` (prisma/seed.ts) and by the embedded database on its first start.
 */
import { productImagePath } from "@/lib/catalog/product-image";
import { slugify } from "@/lib/catalog/slug";
import type { PrismaClient } from "../db";
import {
  BRANDS,
  PLACES,
  TOP_CATEGORIES,
  bookName,
  fill,
  fillBookItem,
  lowerWords,
  type LeafDef,
  type MidDef,
  type TopDef,
} from "./catalog";
import { makeDemoBuyer } from "../accounts/demo-buyer";
import { hashPassword } from "../accounts/password";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./accounts";
import { readHelpArticles } from "./help";
import { rngFor, type Rng } from "@/lib/random";
import { CLOSED_STORE, FIXTURE_STORES, GENERATED_STORES, type StoreDef, type TemplateDef } from "./stores";
import { CURRENCY } from "@/lib/currency";

/** The catalog size of `npm run db:seed` and of the embedded database. */
export const DEFAULT_PRODUCTS = 2000;

const BASE_DATE = Date.parse("2026-11-01T00:00:00.000Z");
const DAY = 86_400_000;
const HOUR = 3_600_000;
const TWO_YEARS = 730 * DAY;
const BATCH = 1000;

type Condition = "new" | "like_new" | "very_good" | "good" | "acceptable" | "refurbished" | "used" | "for_parts";
type ListingStatus = "draft" | "active" | "inactive" | "archived";

const CONDITIONS: Condition[] = ["new", "like_new", "very_good", "good", "refurbished", "used", "acceptable", "for_parts"];
const CONDITION_WEIGHTS = [58, 11, 8, 7, 6, 5, 3, 2];
const BOOK_CONDITION_WEIGHTS = [50, 14, 12, 10, 0, 9, 5, 0];
const CONDITION_PRICE_FACTOR: Record<Condition, number> = {
  new: 1,
  like_new: 0.9,
  very_good: 0.82,
  good: 0.74,
  refurbished: 0.8,
  used: 0.66,
  acceptable: 0.55,
  for_parts: 0.3,
};
const STATUSES: ListingStatus[] = ["active", "draft", "inactive", "archived"];
const STATUS_WEIGHTS = [88, 5, 4, 3];

// ---------------------------------------------------------------------------------------------
// Rows (snake_case keys = column names; inserted through json_to_recordset)

interface CategoryRow {
  id: string;
  slug: string;
  name: string;
  path: string;
  parent_id: string | null;
  position: number;
  active: boolean;
}
interface ProductRow {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  brand_id: string | null;
  category_id: string;
  gtin: string | null;
  mpn: string | null;
  attributes: Record<string, unknown>;
  publicly_listed: boolean;
  published_at: string | null;
  rating_avg: string | null;
  rating_count: number;
  created_at: string;
  updated_at: string;
}
interface ImageRow {
  id: string;
  product_id: string;
  url: string;
  alt: string | null;
  width: number;
  height: number;
  position: number;
}
interface ListingRow {
  id: string;
  store_id: string;
  product_id: string;
  sku: string;
  condition: Condition;
  price_cents: number;
  list_price_cents: number;
  currency: string;
  quantity: number;
  allow_backorder: boolean;
  status: ListingStatus;
  shipping_template_id: string | null;
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

const COLUMNS = {
  users:
    "id uuid, email text, name text, role user_role, password_hash text, email_verified_at timestamptz, " +
    "created_at timestamptz, updated_at timestamptz",
  stores: "id uuid, slug text, name text, status store_status, created_at timestamptz, updated_at timestamptz",
  store_owners: "store_id uuid, user_id uuid, created_at timestamptz",
  brands: "id uuid, slug text, name text",
  categories: "id uuid, slug text, name text, path ltree, parent_id uuid, position int, active boolean",
  shipping_templates: "id uuid, store_id uuid, name text, handling_days int, created_at timestamptz, updated_at timestamptz",
  shipping_rates:
    "id uuid, template_id uuid, region text, service shipping_service, price_cents int, free_over_cents int, min_days int, max_days int",
  products:
    "id uuid, slug text, title text, description text, brand_id uuid, category_id uuid, gtin text, mpn text, attributes jsonb, " +
    "publicly_listed boolean, published_at timestamptz, rating_avg numeric, rating_count int, created_at timestamptz, updated_at timestamptz",
  product_images: "id uuid, product_id uuid, url text, alt text, width int, height int, position int",
  listings:
    "id uuid, store_id uuid, product_id uuid, sku text, condition listing_condition, price_cents int, list_price_cents int, " +
    "currency text, quantity int, allow_backorder boolean, status listing_status, shipping_template_id uuid, " +
    "created_at timestamptz, updated_at timestamptz, published_at timestamptz",
  help_articles:
    "id uuid, slug text, title text, summary text, body text, position int, published boolean, created_at timestamptz, updated_at timestamptz",
} as const;

type Table = keyof typeof COLUMNS;

/** One multi-row INSERT: the rows travel as one JSON parameter. */
async function insert(db: PrismaClient, table: Table, rows: object[]): Promise<void> {
  if (rows.length === 0) return;
  const names = COLUMNS[table]
    .split(",")
    .map((c) => c.trim().split(" ")[0])
    .join(", ");
  await db.$executeRawUnsafe(
    `INSERT INTO ${table} (${names}) SELECT ${names} FROM json_to_recordset($1::json) AS x(${COLUMNS[table]})`,
    JSON.stringify(rows),
  );
}

/** The `help_articles` rows the seed inserts: every file of content/help, published. */
export function helpArticleRows() {
  return readHelpArticles().map((a) => {
    const at = iso(BASE_DATE - (30 - a.position) * DAY);
    return { id: rngFor(`help:${a.slug}`).uuid(), ...a, published: true, created_at: at, updated_at: at };
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers

const iso = (ms: number) => new Date(ms).toISOString();


/** EAN-13 from 12 digits. */
function ean13(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return first12 + String((10 - (sum % 10)) % 10);
}

/** Unique, scrambled-looking GTIN for generated product i (bijective in i). */
function gtinFor(i: number, book: boolean): string {
  if (book) {
    const n = (BigInt(i) * 387_420_489n + 123_456_789n) % 1_000_000_000n; // 3^18, coprime with 10
    return ean13(`978${n.toString().padStart(9, "0")}`);
  }
  const n = (BigInt(i) * 6_364_136_223n + 1_442_695_040n) % 10_000_000_000n; // odd, not a multiple of 5
  return ean13(`20${n.toString().padStart(10, "0")}`);
}

/** Shop-style price: whole dollars minus a cent above $20, .49/.99 below. */
function shopPrice(cents: number): number {
  if (cents >= 2000) return Math.max(99, Math.round(cents / 100) * 100 - 1);
  return Math.max(99, Math.round(cents / 50) * 50 - 1);
}

function weightedSampleWithoutReplacement<T>(rng: Rng, items: T[], weights: number[], count: number): T[] {
  const pool = items.slice();
  const w = weights.slice();
  const out: T[] = [];
  while (out.length < count && pool.length > 0) {
    let total = 0;
    for (const x of w) total += x;
    let r = rng.next() * total;
    let k = 0;
    for (; k < pool.length - 1; k++) {
      r -= w[k] ?? 0;
      if (r < 0) break;
    }
    out.push(pool[k] as T);
    pool.splice(k, 1);
    w.splice(k, 1);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reference data

interface LeafInfo {
  leaf: LeafDef;
  mid: MidDef;
  top: TopDef;
  leafId: string;
  midId: string;
}

interface Reference {
  categories: CategoryRow[];
  leaves: LeafInfo[];
  leafWeights: number[];
  categoryIdBySlug: Map<string, string>;
  brands: Array<{ id: string; slug: string; name: string; code: string; tops: string[] }>;
  brandsByTop: Map<string, Array<{ id: string; name: string; code: string }>>;
}

function buildReference(): Reference {
  const categories: CategoryRow[] = [];
  const leaves: LeafInfo[] = [];
  const categoryIdBySlug = new Map<string, string>();
  const add = (slug: string, name: string, parent: CategoryRow | null, position: number, active = true) => {
    if (!/^[a-z0-9_]+$/.test(slug)) throw new Error(`bad category slug ${slug}`);
    if (categoryIdBySlug.has(slug)) throw new Error(`duplicate category slug ${slug}`);
    const row: CategoryRow = {
      id: rngFor(`category:${slug}`).uuid(),
      slug,
      name,
      path: parent ? `${parent.path}.${slug}` : slug,
      parent_id: parent?.id ?? null,
      position,
      active,
    };
    categories.push(row);
    categoryIdBySlug.set(slug, row.id);
    return row;
  };
  TOP_CATEGORIES.forEach((top, ti) => {
    const topRow = add(top.slug, top.name, null, ti);
    top.children.forEach((mid, mi) => {
      const midRow = add(mid.slug, mid.name, topRow, mi);
      mid.children.forEach((leaf, li) => {
        const leafRow = add(leaf.slug, leaf.name, midRow, li);
        leaves.push({ leaf, mid, top, leafId: leafRow.id, midId: midRow.id });
      });
    });
    if (top.slug === "electronics") add("fixture_inactive", "Fixture Inactive Category", topRow, top.children.length, false);
  });

  const brands = BRANDS.map((b) => {
    const slug = slugify(b.name);
    const code = b.name.replace(/[^A-Za-z]/g, "").slice(0, 3).toUpperCase();
    return { id: rngFor(`brand:${slug}`).uuid(), slug, name: b.name, code, tops: b.tops };
  });
  const brandsByTop = new Map<string, Array<{ id: string; name: string; code: string }>>();
  for (const b of brands) for (const t of b.tops) brandsByTop.set(t, [...(brandsByTop.get(t) ?? []), b]);

  return { categories, leaves, leafWeights: leaves.map((l) => l.leaf.weight), categoryIdBySlug, brands, brandsByTop };
}

interface SeededStore extends StoreDef {
  id: string;
  ownerId: string;
  templateIds: string[];
}

/** `passwordHash`: of DEMO_PASSWORD, hashed once per run (scrypt is slow on purpose). */
function buildStores(passwordHash: string) {
  const users: object[] = [];
  const stores: object[] = [];
  const owners: object[] = [];
  const templates: object[] = [];
  const rates: object[] = [];
  const seeded: SeededStore[] = [];
  const all = [...FIXTURE_STORES, ...GENERATED_STORES, CLOSED_STORE];
  all.forEach((store, k) => {
    const rng = rngFor(`store:${store.slug}`);
    const ownerId = rng.uuid();
    const id = rng.uuid();
    const created = BASE_DATE - TWO_YEARS - rng.int(10, 120) * DAY - k * HOUR;
    users.push({
      id: ownerId,
      email: `owner+${store.slug}@example.com`,
      name: store.ownerName,
      role: "store_owner",
      password_hash: passwordHash,
      email_verified_at: iso(created - DAY),
      created_at: iso(created - DAY),
      updated_at: iso(created - DAY),
    });
    stores.push({
      id,
      slug: store.slug,
      name: store.name,
      status: store.status,
      created_at: iso(created),
      // Suspended/closed stores changed state recently.
      updated_at: iso(store.status === "active" ? created : BASE_DATE - rng.int(2, 60) * DAY),
    });
    owners.push({ store_id: id, user_id: ownerId, created_at: iso(created) });
    const defs = store.templates ?? generatedTemplates(rng);
    if (defs.length === 0) throw new Error(`seed store ${store.slug} has no shipping template`);
    const templateIds: string[] = [];
    for (const t of defs) {
      const templateId = rng.uuid();
      templateIds.push(templateId);
      templates.push({
        id: templateId,
        store_id: id,
        name: t.name,
        handling_days: t.handlingDays,
        created_at: iso(created + HOUR),
        updated_at: iso(created + HOUR),
      });
      for (const r of t.rates) {
        rates.push({
          id: rng.uuid(),
          template_id: templateId,
          region: "US",
          service: r.service,
          price_cents: r.priceCents,
          free_over_cents: r.freeOverCents,
          min_days: r.minDays,
          max_days: r.maxDays,
        });
      }
    }
    seeded.push({ ...store, id, ownerId, templateIds });
  });
  DEMO_ACCOUNTS.forEach((account, k) => {
    const userId = rngFor(`user:${account.email}`).uuid();
    const at = iso(BASE_DATE - 90 * DAY + k * HOUR);
    users.push({
      id: userId,
      email: account.email,
      name: account.name,
      role: account.role,
      password_hash: passwordHash,
      email_verified_at: at,
      created_at: at,
      updated_at: at,
    });
    for (const slug of account.stores) {
      const store = seeded.find((x) => x.slug === slug);
      if (!store) throw new Error(`demo account ${account.email} owns unknown store ${slug}`);
      owners.push({ store_id: store.id, user_id: userId, created_at: at });
    }
  });
  return { users, stores, owners, templates, rates, seeded };
}

function generatedTemplates(rng: Rng): TemplateDef[] {
  const standard = rng.pick([0, 0, 299, 399, 499, 599, 799, 999]);
  const minDays = rng.int(3, 5);
  const out: TemplateDef[] = [
    {
      name: standard === 0 ? "Free standard shipping" : "Standard shipping",
      handlingDays: rng.int(1, 2),
      rates: [
        {
          service: "standard",
          priceCents: standard,
          freeOverCents: standard > 0 && rng.chance(0.6) ? rng.pick([2500, 3500, 5000, 7500]) : null,
          minDays,
          maxDays: minDays + rng.int(2, 4),
        },
        {
          service: "expedited",
          priceCents: standard + rng.pick([800, 1000, 1200, 1500, 2000]),
          freeOverCents: null,
          minDays: 1,
          maxDays: rng.int(2, 3),
        },
      ],
    },
  ];
  if (rng.chance(0.6)) {
    out.push({
      name: "Large and heavy items",
      handlingDays: rng.int(2, 4),
      rates: [
        { service: "standard", priceCents: rng.pick([699, 799, 899, 999]), freeOverCents: null, minDays: 5, maxDays: 10 },
        { service: "expedited", priceCents: rng.pick([2499, 2999, 3999]), freeOverCents: null, minDays: 2, maxDays: 4 },
      ],
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Generated products

interface Generated {
  product: ProductRow;
  images: ImageRow[];
  listings: ListingRow[];
}

function generateProduct(i: number, ref: Reference, listingStores: SeededStore[]): Generated {
  const rng = rngFor(`product:${i}`);
  const id = rng.uuid();
  const info = rng.weighted(ref.leaves, ref.leafWeights);
  const { leaf, mid, top } = info;
  const book = top.kind === "book";
  const categoryId = rng.chance(0.1) ? info.midId : info.leafId;

  const brandPool = ref.brandsByTop.get(top.slug) ?? [];
  const brand = rng.chance(0.05) || brandPool.length === 0 ? null : rng.pick(brandPool);
  const color = top.colors.length ? rng.pick(top.colors) : "";
  const materials = leaf.materials ?? mid.materials ?? top.materials;
  const material = materials.length ? rng.pick(materials) : "";
  const item = rng.pick(leaf.items);

  let title: string;
  if (book) {
    title = `${bookName(rng)}: ${fillBookItem(rng, item)}`;
  } else {
    // "Aurora Sound Pro Wireless Noise-Cancelling Headphones", "Classic Cast Iron Skillet 12-inch"
    const withBrand = brand !== null && rng.chance(0.45);
    const lead = withBrand ? `${brand.name} ` : "";
    const words = withBrand && top.lines.length && rng.chance(0.5) ? top.lines : leaf.mods ?? top.mods;
    const candidate = words.length && rng.chance(0.4) ? rng.pick(words) : "";
    const mod = candidate && !item.toLowerCase().includes(candidate.toLowerCase()) ? `${candidate} ` : "";
    let suffix = "";
    if (leaf.suffixes && rng.chance(leaf.suffixChance ?? 0.6)) suffix = rng.pick(leaf.suffixes);
    else if (color && rng.chance(0.25)) suffix = ` - ${color}`;
    title = `${lead}${mod}${item}${suffix}`;
  }
  const slug = `${slugify(title, 80)}-${i + 1}`;

  const attributes = top.attributes(rng, { color, material, item, mid: mid.slug, leaf: leaf.slug });
  const values = {
    brand: brand?.name ?? "",
    item,
    color: lowerWords(color),
    material: lowerWords(material),
    author: String(attributes.author ?? ""),
    place: rng.pick(PLACES),
  };
  const sentences = [fill(rng.pick(top.intro), values)];
  const extra = [...top.details, ...(leaf.notes ?? []), ...(leaf.notes ?? [])];
  for (const s of rng.sample(extra, rng.int(0, 2))) {
    const sentence = fill(s, values);
    if (!sentences.includes(sentence)) sentences.push(sentence);
  }
  const description = rng.chance(0.02) ? null : sentences.join(" ");

  const created = BASE_DATE - rng.int(86_400, TWO_YEARS / 1000) * 1000;
  const listed = rng.chance(0.97);
  const published = listed ? Math.min(BASE_DATE, created + rng.int(0, 72 * HOUR)) : null;
  const rated = rng.chance(0.9);
  const ratingCount = rated ? Math.floor(rng.logUniform(1, 5000)) : 0;
  const ratingAvg = rated ? Math.min(5, Math.max(1, 4.25 + rng.normal() * (ratingCount < 10 ? 0.9 : 0.45))).toFixed(2) : null;

  const product: ProductRow = {
    id,
    slug,
    title,
    description,
    brand_id: brand?.id ?? null,
    category_id: categoryId,
    gtin: rng.chance(0.04) ? null : gtinFor(i, book),
    mpn: book || !brand ? null : `${brand.code}-${rng.int(100, 9999)}${String.fromCharCode(65 + rng.int(0, 25))}`,
    attributes,
    publicly_listed: listed,
    published_at: published === null ? null : iso(published),
    rating_avg: ratingAvg,
    rating_count: ratingCount,
    created_at: iso(created),
    updated_at: iso(Math.max(created, published ?? created)),
  };

  const images: ImageRow[] = [];
  const imageCount = rng.weighted([1, 2, 3], [50, 30, 20]);
  const views = ["", " - detail", " - in use"];
  for (let p = 0; p < imageCount; p++) {
    images.push({
      id: rng.uuid(),
      product_id: id,
      url: productImagePath(slug, p + 1),
      alt: rng.chance(0.1) ? null : `${title}${views[p] ?? ""}`,
      width: 800,
      height: 800,
      position: p,
    });
  }

  const listings: ListingRow[] = [];
  const listingCount = rng.weighted([1, 2, 3, 4, 5, 6], [30, 25, 18, 12, 9, 6]);
  const storeWeights = listingStores.map((s) =>
    s.status !== "active" ? 0.4 : s.focus.includes(top.slug) ? 6 : s.focus.length === 0 ? 3 : 0.7,
  );
  const stores = weightedSampleWithoutReplacement(rng, listingStores, storeWeights, listingCount);
  const basePrice = rng.logUniform(leaf.price[0], leaf.price[1]) * 100;
  for (const store of stores) {
    const condition = rng.weighted(CONDITIONS, book ? BOOK_CONDITION_WEIGHTS : CONDITION_WEIGHTS);
    const price = shopPrice(basePrice * CONDITION_PRICE_FACTOR[condition] * (0.9 + rng.next() * 0.25));
    const listPrice = rng.chance(0.25) ? shopPrice(price / (1 - rng.int(8, 40) / 100)) : price;
    const status = rng.weighted(STATUSES, STATUS_WEIGHTS);
    const listingCreated = Math.min(BASE_DATE - HOUR, created + rng.int(0, 90 * DAY));
    const listingPublished = status === "active" ? Math.min(BASE_DATE, listingCreated + rng.int(0, 48 * HOUR)) : null;
    listings.push({
      id: rng.uuid(),
      store_id: store.id,
      product_id: id,
      sku: `${store.skuPrefix}-${String(i + 1).padStart(7, "0")}`,
      condition,
      price_cents: price,
      list_price_cents: Math.max(listPrice, price),
      currency: CURRENCY,
      quantity: rng.chance(0.08) ? 0 : rng.int(1, 50),
      allow_backorder: rng.chance(0.04),
      status,
      shipping_template_id: rng.pick(store.templateIds),
      created_at: iso(listingCreated),
      updated_at: iso(Math.max(listingCreated, listingPublished ?? listingCreated) + rng.int(0, 30) * 60_000),
      published_at: listingPublished === null ? null : iso(listingPublished),
    });
  }
  return { product, images, listings };
}

// ---------------------------------------------------------------------------------------------
// Fixtures (docs/fixtures.md; tests depend on every value)

function buildFixtures(ref: Reference, stores: Map<string, SeededStore>) {
  const rng = rngFor("fixtures");
  const at = (minutes: number) => iso(Date.parse("2026-10-01T00:00:00.000Z") + minutes * 60_000);
  const storeA = stores.get("fixture-store-a")!;
  const storeB = stores.get("fixture-store-b")!;
  const suspended = stores.get("fixture-suspended-store")!;
  const smartphones = ref.categoryIdBySlug.get("smartphones")!;
  const inactiveCategory = ref.categoryIdBySlug.get("fixture_inactive")!;
  const voltix = ref.brands.find((b) => b.slug === "voltix")!;

  const products: ProductRow[] = [];
  const images: ImageRow[] = [];
  const listings: ListingRow[] = [];
  const ids = new Map<string, string>();

  const product = (
    n: number,
    slug: string,
    title: string,
    opts: { listed: boolean; categoryId?: string; brandId?: string | null; rating?: [string, number] },
  ) => {
    const id = rng.uuid();
    ids.set(slug, id);
    products.push({
      id,
      slug,
      title,
      description: `${title}. A fixture product used by the automated tests; its offers are fixed.`,
      brand_id: opts.brandId === undefined ? voltix.id : opts.brandId,
      category_id: opts.categoryId ?? smartphones,
      gtin: ean13(`29000000${String(n).padStart(4, "0")}`),
      mpn: `FIX-${String(n).padStart(3, "0")}`,
      attributes: { color: "Black", storage_gb: 128, wireless: true },
      publicly_listed: opts.listed,
      published_at: opts.listed ? at(n) : null,
      rating_avg: opts.rating?.[0] ?? null,
      rating_count: opts.rating?.[1] ?? 0,
      created_at: at(n),
      updated_at: at(n),
    });
    images.push({
      id: rng.uuid(),
      product_id: id,
      url: productImagePath(slug, 1),
      alt: title,
      width: 800,
      height: 800,
      position: 0,
    });
  };

  let minute = 100;
  const listing = (
    productSlug: string,
    store: SeededStore,
    sku: string,
    condition: Condition,
    price: number,
    listPrice: number,
    quantity: number,
    status: ListingStatus,
    allowBackorder = false,
  ) => {
    minute += 1;
    listings.push({
      id: rng.uuid(),
      store_id: store.id,
      product_id: ids.get(productSlug)!,
      sku,
      condition,
      price_cents: price,
      list_price_cents: listPrice,
      currency: CURRENCY,
      quantity,
      allow_backorder: allowBackorder,
      status,
      shipping_template_id: store.templateIds[0]!,
      created_at: at(minute),
      updated_at: at(minute),
      published_at: status === "active" ? at(minute) : null,
    });
  };

  product(1, "fixture-mixed-offers", "Quokkaphone Mixed Offers Smartphone", { listed: true, rating: ["4.50", 120] });
  product(2, "fixture-unlisted", "Quokkaphone Unlisted Smartphone", { listed: false });
  product(3, "fixture-draft-only", "Quokkaphone Draft Only Smartphone", { listed: true });
  product(4, "fixture-backorder-only", "Quokkaphone Backorder Only Smartphone", { listed: true, rating: ["3.75", 8] });
  product(5, "fixture-suspended-only", "Quokkaphone Suspended Only Smartphone", { listed: true });
  product(6, "fixture-in-inactive-category", "Wombatwidget Desk Gadget", {
    listed: true,
    categoryId: inactiveCategory,
    brandId: null,
  });

  // Purchasable offers of fixture-mixed-offers, in creation order (MIX-NEW-A is the oldest).
  listing("fixture-mixed-offers", storeA, "MIX-NEW-A", "new", 10000, 12000, 5, "active");
  listing("fixture-mixed-offers", storeB, "MIX-NEW-B", "new", 9800, 9800, 3, "active");
  listing("fixture-mixed-offers", storeB, "MIX-USED-B", "used", 6000, 6000, 2, "active");
  listing("fixture-mixed-offers", storeA, "MIX-BACKORDER-A", "like_new", 7000, 7000, 0, "active", true);
  // Never shown.
  listing("fixture-mixed-offers", storeA, "MIX-DRAFT", "new", 1000, 1000, 4, "draft");
  listing("fixture-mixed-offers", storeB, "MIX-INACTIVE", "new", 1100, 1100, 4, "inactive");
  listing("fixture-mixed-offers", storeA, "MIX-ARCHIVED", "new", 1200, 1200, 4, "archived");
  listing("fixture-mixed-offers", storeA, "MIX-SOLDOUT", "new", 1300, 1300, 0, "active");
  listing("fixture-mixed-offers", suspended, "MIX-SUSPENDED", "new", 1400, 1400, 9, "active");

  listing("fixture-unlisted", storeA, "UNLISTED-A", "new", 15000, 15000, 7, "active");
  listing("fixture-draft-only", storeA, "DRAFT-ONLY-A", "new", 12500, 12500, 6, "draft");
  listing("fixture-backorder-only", storeB, "BACKORDER-ONLY-B", "new", 8900, 8900, 0, "active", true);
  listing("fixture-suspended-only", suspended, "SUSPENDED-ONLY", "new", 11000, 11000, 5, "active");
  listing("fixture-in-inactive-category", storeA, "WOMBAT-A", "new", 2500, 2500, 10, "active");

  return { products, images, listings };
}

// ---------------------------------------------------------------------------------------------

export interface SeedProgress {
  start(total: number): void;
  update(done: number): void;
  stop(): void;
}

export interface SeedOptions {
  /** Generated products besides the fixtures (default 2,000). */
  products?: number;
  progress?: SeedProgress;
}

/** Row counts of the seeded tables. */
export type SeedCounts = Record<string, number>;

/** Replaces the whole catalog (TRUNCATE first, so it can run again) with the seed's. */
export async function seedCatalog(db: PrismaClient, { products: total = DEFAULT_PRODUCTS, progress }: SeedOptions = {}): Promise<SeedCounts> {
  await db.$executeRawUnsafe(
    "TRUNCATE users, stores, brands, categories, products, product_images, listings, shipping_templates, " +
      "shipping_rates, stock_adjustments, help_articles, product_search, search_terms, search_lexemes, idempotency_keys, login_tokens, " +
      "outbox_emails, settings CASCADE",
  );

  const ref = buildReference();
  await insert(db, "categories", ref.categories);
  await insert(db, "brands", ref.brands.map(({ id, slug, name }) => ({ id, slug, name })));

  const s = buildStores(await hashPassword(DEMO_PASSWORD));
  await insert(db, "users", s.users);
  await insert(db, "stores", s.stores);
  await insert(db, "store_owners", s.owners);
  for (const account of DEMO_ACCOUNTS.filter((a) => a.demoBuyer)) {
    const userId = rngFor(`user:${account.email}`).uuid();
    await db.$transaction((tx) => makeDemoBuyer(tx, userId));
  }
  await insert(db, "shipping_templates", s.templates);
  await insert(db, "shipping_rates", s.rates);

  await insert(db, "help_articles", helpArticleRows());

  const fixtures = buildFixtures(ref, new Map(s.seeded.map((x) => [x.slug, x])));
  await insert(db, "products", fixtures.products);
  await insert(db, "product_images", fixtures.images);
  await insert(db, "listings", fixtures.listings);

  const listingStores = s.seeded.filter((x) => x.generated);
  progress?.start(total);
  // The triggers' refresh_product_search() plans from table statistics; right after TRUNCATE
  // they say "tiny", which turns each batch into a walk over every listing (quadratic load).
  // Autovacuum may be off or late, so refresh statistics whenever the tables have doubled.
  await db.$executeRawUnsafe("ANALYZE categories, brands, stores, shipping_templates, shipping_rates");
  let analyzeAt = BATCH;
  for (let from = 0; from < total; from += BATCH) {
    const to = Math.min(total, from + BATCH);
    const products: ProductRow[] = [];
    const images: ImageRow[] = [];
    const listings: ListingRow[] = [];
    for (let i = from; i < to; i++) {
      const g = generateProduct(i, ref, listingStores);
      products.push(g.product);
      images.push(...g.images);
      listings.push(...g.listings);
    }
    await insert(db, "products", products);
    await insert(db, "product_images", images);
    await insert(db, "listings", listings);
    if (to >= analyzeAt && to < total) {
      await db.$executeRawUnsafe("ANALYZE products, product_images, listings, product_search");
      analyzeAt *= 2;
    }
    progress?.update(to);
  }
  progress?.stop();

  await db.$executeRawUnsafe("ANALYZE");
  // The facet bitmaps in one pass, with ordinals in category order (not product by product).
  await db.$executeRawUnsafe("SELECT rebuild_facet_bitmaps()");

  const [counts] = await db.$queryRawUnsafe<Array<Record<string, number>>>(`SELECT
    (SELECT count(*)::int FROM categories) AS categories,
    (SELECT count(*)::int FROM brands) AS brands,
    (SELECT count(*)::int FROM stores) AS stores,
    (SELECT count(*)::int FROM products) AS products,
    (SELECT count(*)::int FROM product_images) AS product_images,
    (SELECT count(*)::int FROM listings) AS listings,
    (SELECT count(*)::int FROM product_search) AS product_search,
    (SELECT count(*)::int FROM help_articles) AS help_articles`);
  return counts ?? {};
}
