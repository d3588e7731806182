/**
 * docs/agents.md's UCP and ACP walk-throughs are true: every `sh` block from its "UCP" section on
 * runs, in the order shown, in one bash session against a fresh app (BASE; ITEM_A and ITEM_B
 * offers of two stores, the second shipping at $5.99), and prints what the page says it prints.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runShellBlocks, shellBlocks } from "../helpers/doc-examples";
import { storeIdOf, type IsolatedApp, startIsolatedApp } from "../helpers/seller";

const DOC = readFileSync("docs/agents.md", "utf8");
const SECTION = DOC.slice(DOC.indexOf("## UCP: the Universal Commerce Protocol"));
const BLOCKS = shellBlocks(SECTION);

/** What each block prints, in order (its output lines, trimmed). */
const EXPECTED: Array<(lines: string[], app: IsolatedApp) => void> = [
  (l, app) => expect(l).toEqual(["2026-01-11", `${app.baseUrl}/api/ucp`]),
  (l) => expect(l).toEqual(["incomplete", "$.fulfillment.methods[0].selected_destination_id"]),
  (l) => expect(l).toEqual(["ready_for_complete", "subtotal 4900", "fulfillment 599", "total 5499"]),
  (l) => expect(l).toEqual(["completed", "2"]),
  (l) => expect(l).toEqual(["1 2500", "1 2999"]),
  (l) => expect(l).toEqual(["not_ready_for_payment", "fixture-store-a__standard 0", "harbor-electronics__standard 599"]),
  (l) => expect(l).toEqual(["ready_for_payment", "items_base_amount 4900", "subtotal 4900", "fulfillment 599", "total 5499"]),
  (l) => expect(l).toEqual(["completed", "2500", "2999"]),
];

let app: IsolatedApp;
let outputs: string[][] = [];
let stderr = "";
let exitCode: number | null = null;

beforeAll(async () => {
  app = await startIsolatedApp("agents-docs");
  const q = async (sql: string, params: unknown[]) => (await app.pool.query(sql, params)).rows;
  const product = (await q(`SELECT id FROM products WHERE publicly_listed ORDER BY slug LIMIT 1`, []))[0].id;
  const storeB = await storeIdOf(app.pool, "harbor-electronics");
  const [template] = await q(`INSERT INTO shipping_templates (store_id, name) VALUES ($1, 'Walkthrough') RETURNING id`, [storeB]);
  await q(`INSERT INTO shipping_rates (template_id, region, service, price_cents, min_days, max_days) VALUES ($1, 'US', 'standard', 599, 2, 5)`, [template.id]);
  const listing = async (store: string, price: number, templateId: string | null) =>
    (
      await q(
        `INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, allow_backorder, status, published_at, shipping_template_id)
         VALUES ($1, $2, $3, 'new', $4, $4, 20, false, 'active', now(), $5) RETURNING id`,
        [store, product, `DOC-${randomBytes(3).toString("hex")}`, price, templateId],
      )
    )[0].id as string;
  const itemA = await listing(await storeIdOf(app.pool, "fixture-store-a"), 2500, null);
  const itemB = await listing(storeB, 1200, template.id);
  ({ exitCode, stderr, outputs } = await runShellBlocks(BLOCKS, { BASE: app.baseUrl, ITEM_A: itemA, ITEM_B: itemB }));
});

afterAll(async () => {
  await app?.stop();
});

describe("docs/agents.md UCP and ACP walk-throughs", () => {
  it("has as many examples as this test knows (a new example needs its expectation here)", () => {
    expect(BLOCKS.length).toBe(EXPECTED.length);
  });

  it("runs to the end without an error", () => {
    expect(exitCode, stderr).toBe(0);
    expect(outputs.length).toBe(BLOCKS.length);
  });

  EXPECTED.forEach((check, i) => {
    it(`example ${i + 1} prints what the page says: ${BLOCKS[i]?.split("\n")[0]?.slice(0, 60)}`, () => {
      check(outputs[i] ?? [], app);
    });
  });
});
