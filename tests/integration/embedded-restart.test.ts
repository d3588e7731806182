/**
 * The embedded store keeps what it is given: a cart made before the app restarts is there after
 * it, on the same data directory. It runs on an embedded database of its own whatever the mode
 * (it needs no service): the app migrates and seeds it on its first start, then is stopped
 * (SIGTERM, as a person stopping `npm start` would) and started again on the same folder.
 */
import { afterAll, describe, expect, it } from "vitest";
import { parseCartPage } from "../helpers/html";
import { api } from "../helpers/http";
import { createTestDatabase, startServer, type StartedServer, type TestDatabase } from "../setup/app";

let database: TestDatabase | undefined;
let server: StartedServer | undefined;

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

/** GET or a same-origin form post with a cookie jar, no redirects followed. */
async function send(base: string, cookies: Map<string, string>, path: string, form?: Record<string, string>) {
  const headers = new Headers({ "User-Agent": "marketplace-restart-test/1.0" });
  if (cookies.size > 0) headers.set("Cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
  if (form) {
    headers.set("Origin", base);
    headers.set("Sec-Fetch-Site", "same-origin");
  }
  const res = await fetch(base + path, {
    method: form ? "POST" : "GET",
    headers,
    body: form ? new URLSearchParams(form) : undefined,
    redirect: "manual",
    signal: AbortSignal.timeout(25_000),
  });
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(";", 1)[0]!;
    const eq = pair.indexOf("=");
    cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe("the embedded store, restarted", () => {
  it("keeps a cart made before the restart", async () => {
    database = await createTestDatabase({ embedded: true, logPrefix: "[restart]" });
    server = await startServer({ database, logPrefix: "[restart]" });

    const product = await api(`${server.baseUrl}/api/public/v1/products/fixture-mixed-offers`);
    expect(product.status).toBe(200);
    const offer = product.json.data.offers[0];
    const cookies = new Map<string, string>();
    const added = await send(server.baseUrl, cookies, "/cart/add", { listing_id: offer.listing_id, quantity: "2" });
    expect(added.status, added.text.slice(0, 200)).toBe(303);
    expect(added.headers.get("location")).toContain("notice=added");
    expect(cookies.get("cart")).toBeTruthy();
    const before = parseCartPage((await send(server.baseUrl, cookies, "/cart")).text);
    expect(before.lines.map((l) => [l.listingId, l.quantity])).toEqual([[offer.listing_id, 2]]);

    await server.stop();
    server = await startServer({ database, logPrefix: "[restart]" });
    expect(server.stderr(), "the second start neither migrates nor seeds again").not.toMatch(/seeding|applied/);
    // Nor does it make a Prisma client to ask whether to migrate: one query on the session says
    // there is nothing to do (the first request waited for that work).
    expect(server.stderr()).toMatch(/\[embedded database\] opened .*: migrated and seeded already/);

    const page = await send(server.baseUrl, cookies, "/cart");
    expect(page.status).toBe(200);
    const after = parseCartPage(page.text);
    expect(after.lines.map((l) => [l.listingId, l.quantity, l.priceCents])).toEqual([[offer.listing_id, 2, offer.price_cents]]);
  }, 300_000);
});
