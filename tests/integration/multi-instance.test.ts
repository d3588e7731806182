/**
 * Two app processes on different ports over the same PostgreSQL and Redis, as behind a load
 * balancer: a burst from one IP split across both is limited as one bucket, and a cart link
 * minted on one opens on the other. Needs Redis (skipped when this run has none).
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type StartedServer } from "../setup/app";
import { parseHtml } from "../helpers/html";
import { api, randomClientIp } from "../helpers/http";
import { drainBucket } from "../helpers/rate-limit";

const redisUrl = inject("REDIS_URL");

describe.skipIf(!redisUrl)("two app instances share Redis and PostgreSQL", () => {
  let a: StartedServer;
  let b: StartedServer;
  beforeAll(async () => {
    const env = { REDIS_URL: redisUrl, RATE_LIMIT_PREFIX: `rl-test-${randomBytes(6).toString("hex")}:` };
    const databaseUrl = inject("DATABASE_URL");
    [a, b] = await Promise.all([
      startServer({ databaseUrl, env, logPrefix: "[instance a]" }),
      startServer({ databaseUrl, env, logPrefix: "[instance b]" }),
    ]);
    // Load the route on both, and open the connections the burst will use.
    await Promise.all(
      [a, b].flatMap((s) => Array.from({ length: 16 }, () => api(`${s.baseUrl}/api/public/v1/categories`, {}, { clientIp: randomClientIp() }))),
    );
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("a burst from one IP split across both instances is limited as one bucket", async () => {
    // One bucket: 30 tokens in all (and those that came back during the burst), each whole-token
    // count seen once per such token, whichever instance served it (tests/helpers/rate-limit.ts).
    const ip = randomClientIp();
    let i = 0;
    const { passed } = await drainBucket(30, 200, () => api(`${(i++ % 2 ? a : b).baseUrl}/api/public/v1/categories`, {}, { clientIp: ip }));
    expect(passed.every((r) => r.status === 200)).toBe(true);
  });

  it("a cart link minted on one instance opens on the other", async () => {
    const search = await api(`${a.baseUrl}/api/public/v1/search?q=lamp&page_size=1`);
    const slug = search.json.data[0].slug;
    const product = await api(`${a.baseUrl}/api/public/v1/products/${slug}`);
    const offer = product.json.data.offers[0];
    const minted = await api(`${a.baseUrl}/api/public/v1/cart-links`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ items: [{ listing_id: offer.listing_id, quantity: 2 }] }),
    });
    expect(minted.status).toBe(200);
    const url = new URL(minted.json.data.url);
    expect(url.origin).toBe(a.baseUrl);

    const page = await api(`${b.baseUrl}${url.pathname}`);
    expect(page.status).toBe(200);
    const $ = parseHtml(page.text);
    expect($("[data-cart-link-state]").attr("data-cart-link-state")).toBe("opened");
    const line = $(`[data-cart-line="${offer.listing_id}"]`);
    expect(line.attr("data-quantity")).toBe("2");
    expect(line.attr("data-price-cents")).toBe(String(offer.price_cents));
  });
});
