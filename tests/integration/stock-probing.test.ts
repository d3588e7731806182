/**
 * Stock probing on cart links (lib/cart/links.ts, withinProbeBudget): `insufficient_stock` must
 * not let a client learn a listing's stock count. Without a budget, bisection over 1..99 finds it
 * in 7 requests, inside the 10-request burst. Every exact comparison (a line asking for more than
 * one unit of an offer that is in stock) spends a token of that listing's budget, shared by every
 * address; once it is spent, such lines are accepted unchecked.
 *
 * The suite's other servers run with a budget of a million (tests/setup/app.ts), so that the
 * contract tests see the spec's comparison; this file starts an app with the default budget.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomClientIp } from "../helpers/http";
import { startIsolatedApp, type IsolatedApp } from "../helpers/seller";

/** The default of STOCK_PROBE_BUDGET (lib/config.ts). */
const BUDGET = 3;

let app: IsolatedApp;

beforeAll(async () => {
  app = await startIsolatedApp("stock-probing", { STOCK_PROBE_BUDGET: undefined });
});
afterAll(async () => {
  await app?.stop();
});

type Verdict = "accepted" | "insufficient_stock" | "unavailable";

/** Mints a link for one line from an address of its own, as a prober rotating addresses would. */
async function ask(listingId: string, quantity: number): Promise<Verdict> {
  const res = await fetch(`${app.baseUrl}/api/public/v1/cart-links`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": randomClientIp() },
    body: JSON.stringify({ items: [{ listing_id: listingId, quantity }] }),
  });
  const body = await res.json();
  if (res.status === 200) {
    expect(body.data.accepted).toBe(1);
    return "accepted";
  }
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(body.error.code).toBe("no_purchasable_lines");
  return body.error.rejected[0].reason;
}

/** Purchasable listings without backorder holding `min`..`max` units, fewest first. */
async function inStockListings(min: number, max: number, count: number): Promise<Array<{ id: string; quantity: number }>> {
  const { rows } = await app.pool.query<{ id: string; quantity: number }>(
    `SELECT l.id::text, l.quantity FROM listings l JOIN stores s ON s.id = l.store_id JOIN products p ON p.id = l.product_id
     WHERE l.status = 'active' AND s.status = 'active' AND p.publicly_listed AND NOT l.allow_backorder
       AND l.quantity BETWEEN $1 AND $2
     ORDER BY l.quantity, l.id LIMIT $3`,
    [min, max, count],
  );
  expect(rows, `the seed has ${count} listings holding ${min}..${max} units`).toHaveLength(count);
  return rows;
}

describe("cart links: a stock count cannot be learned by asking", () => {
  it("bisection from rotating addresses gets at most the budget's exact answers, then only acceptances", async () => {
    const [target] = await inStockListings(20, 60, 1);
    const stock = target!.quantity;
    // The best strategy for a prober who trusts every answer: halve [1, 99] for 7 requests.
    let lo = 0; // largest quantity believed available
    let hi = 99; // largest quantity not yet refused
    const answers: Array<{ quantity: number; verdict: Verdict }> = [];
    while (lo < hi) {
      const quantity = Math.ceil((lo + hi + 1) / 2);
      const verdict = await ask(target!.id, quantity);
      answers.push({ quantity, verdict });
      if (verdict === "accepted") lo = quantity;
      else hi = quantity - 1;
    }
    // Then every quantity once more, from 2 to 99: nothing past the budget depends on the stock.
    for (let quantity = 2; quantity <= 99; quantity += 7) answers.push({ quantity, verdict: await ask(target!.id, quantity) });

    const exact = answers.slice(0, BUDGET);
    for (const a of exact) expect(a.verdict).toBe(a.quantity <= stock ? "accepted" : "insufficient_stock");
    expect(answers.slice(BUDGET).map((a) => a.verdict)).toEqual(answers.slice(BUDGET).map(() => "accepted"));
    // What the exact answers allow a prober who knows the rule to conclude.
    const consistent = Array.from({ length: 99 }, (_, i) => i + 1).filter((s) =>
      exact.every((a) => (a.verdict === "accepted") === a.quantity <= s),
    );
    expect(consistent).toContain(stock);
    expect(consistent.length).toBeGreaterThanOrEqual(12);
    console.info(
      `[stock-probing] ${answers.length} requests from as many addresses: ${BUDGET} exact answers, stock ${stock} narrowed to ` +
        `${consistent[0]}..${consistent.at(-1)} (${consistent.length} values); bisection that trusts every answer concludes ${lo}`,
    );
  });

  it("one unit and unknown ids spend nothing; each listing has its own budget", async () => {
    const [first, second] = await inStockListings(5, 15, 2);
    for (let i = 0; i < 10; i++) expect(await ask(first!.id, 1)).toBe("accepted");
    for (let i = 0; i < 5; i++) expect(await ask(randomUUID(), 5)).toBe("unavailable");
    // The budget is intact: the comparisons below are exact, and spend it.
    expect(await ask(first!.id, first!.quantity + 1)).toBe("insufficient_stock");
    expect(await ask(first!.id, first!.quantity)).toBe("accepted");
    expect(await ask(first!.id, 99)).toBe("insufficient_stock");
    // Spent: asking for more than the stock is accepted unchecked, from any address.
    expect(await ask(first!.id, first!.quantity + 1)).toBe("accepted");
    expect(await ask(first!.id, 99)).toBe("accepted");
    // Another listing still answers exactly.
    expect(await ask(second!.id, 99)).toBe("insufficient_stock");
  });
});
