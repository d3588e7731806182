/** Stores of the seed: the fixture stores of docs/fixtures.md and the generated ones. */

export interface RateDef {
  service: "standard" | "expedited";
  priceCents: number;
  freeOverCents: number | null;
  minDays: number;
  maxDays: number;
}

export interface TemplateDef {
  name: string;
  handlingDays: number;
  rates: RateDef[];
}

export interface StoreDef {
  slug: string;
  name: string;
  status: "active" | "suspended" | "closed";
  ownerName: string;
  /** Prefix of generated SKUs. */
  skuPrefix: string;
  /** Top-level category slugs the store focuses on; empty for general stores. */
  focus: string[];
  /** Only generated stores receive generated listings. */
  generated: boolean;
  /** Fixed templates (fixtures); generated stores get theirs from the PRNG. */
  templates?: TemplateDef[];
}

export const FIXTURE_STORES: StoreDef[] = [
  {
    slug: "fixture-store-a",
    name: "Fixture Store A",
    status: "active",
    ownerName: "Ada Fixture",
    skuPrefix: "FXA",
    focus: [],
    generated: false,
    // Cheapest rate 0: docs/fixtures.md relies on it for the buy box of fixture-mixed-offers.
    templates: [
      {
        name: "Free standard shipping",
        handlingDays: 1,
        rates: [
          { service: "standard", priceCents: 0, freeOverCents: null, minDays: 3, maxDays: 5 },
          { service: "expedited", priceCents: 1299, freeOverCents: null, minDays: 1, maxDays: 2 },
        ],
      },
    ],
  },
  {
    slug: "fixture-store-b",
    name: "Fixture Store B",
    status: "active",
    ownerName: "Bo Fixture",
    skuPrefix: "FXB",
    focus: [],
    generated: false,
    // Cheapest rate exactly 500 and no free-shipping threshold (landed 9800 + 500 = 10300).
    templates: [
      {
        name: "Standard shipping",
        handlingDays: 2,
        rates: [
          { service: "standard", priceCents: 500, freeOverCents: null, minDays: 4, maxDays: 7 },
          { service: "expedited", priceCents: 1500, freeOverCents: null, minDays: 2, maxDays: 3 },
        ],
      },
    ],
  },
  {
    slug: "fixture-suspended-store",
    name: "Fixture Suspended Store",
    status: "suspended",
    ownerName: "Sam Fixture",
    skuPrefix: "FXS",
    focus: [],
    generated: false,
    templates: [
      {
        name: "Standard shipping",
        handlingDays: 1,
        rates: [
          { service: "standard", priceCents: 399, freeOverCents: null, minDays: 3, maxDays: 6 },
          { service: "expedited", priceCents: 1399, freeOverCents: null, minDays: 1, maxDays: 3 },
        ],
      },
    ],
  },
];

export const GENERATED_STORES: StoreDef[] = [
  { slug: "harbor-electronics", name: "Harbor Electronics", ownerName: "Jonah Whitaker", skuPrefix: "HBR", focus: ["electronics"] },
  { slug: "maple-and-main-home", name: "Maple & Main Home", ownerName: "Clara Moreau", skuPrefix: "MMH", focus: ["home_kitchen"] },
  { slug: "trailhead-outfitters", name: "Trailhead Outfitters", ownerName: "Owen Brennan", skuPrefix: "THO", focus: ["sports_outdoors", "fashion"] },
  { slug: "second-chapter-books", name: "Second Chapter Books", ownerName: "Ruth Lindqvist", skuPrefix: "SCB", focus: ["books"] },
  { slug: "playroom-depot", name: "Playroom Depot", ownerName: "Kwame Adeyemi", skuPrefix: "PRD", focus: ["toys_games"] },
  { slug: "thread-and-needle", name: "Thread & Needle", ownerName: "Imogen Fontaine", skuPrefix: "TAN", focus: ["fashion"] },
  { slug: "glow-apothecary", name: "Glow Apothecary", ownerName: "Priya Patel", skuPrefix: "GLA", focus: ["beauty"] },
  { slug: "ironwood-supply", name: "Ironwood Supply Co.", ownerName: "Marcus Holloway", skuPrefix: "IWS", focus: ["tools_garden", "home_kitchen"] },
  { slug: "bargain-bay", name: "Bargain Bay", ownerName: "Sofia Delgado", skuPrefix: "BGB", focus: [] },
  { slug: "renewed-tech-exchange", name: "Renewed Tech Exchange", ownerName: "Kenji Nakamura", skuPrefix: "RTX", focus: ["electronics"] },
  { slug: "corner-market-goods", name: "Corner Market Goods", ownerName: "Hannah Keane", skuPrefix: "CMG", focus: [] },
].map((s) => ({ ...s, status: "active" as const, generated: true }));

export const CLOSED_STORE: StoreDef = {
  slug: "sunset-liquidators",
  name: "Sunset Liquidators",
  status: "closed",
  ownerName: "Theo Ashford",
  skuPrefix: "SNL",
  focus: [],
  generated: true,
};
