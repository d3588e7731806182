/**
 * Issue 34 item 5: the store's audit log. Every write of the seller API by a store's key is
 * recorded in its own transaction (actor, action, target, outcome, request id, time), every
 * refused attempt too once it rolled back (a missing scope, invalid input, a state or an id that
 * forbids it); an Idempotency-Key replay records nothing. The dashboard's changes are recorded as
 * the signed-in owner's (API keys created and revoked included), the operator's commands as the
 * operator's. `GET /audit-events` (scope `audit:read`) lists them newest first, cursor-paged, each
 * store only its own; the dashboard shows the same log. On an app and database of its own.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/accounts/password";
import { AuditEvent } from "@/lib/schemas/seller/audit";
import { expectExactKeys } from "../helpers/http";
import { createListingVia, seedIds, uniqueSku } from "../helpers/listings";
import { createTestKey, sellerRequest, startIsolatedApp, storeIdOf, type IsolatedApp } from "../helpers/seller";

const EVENT_KEYS = Object.keys(AuditEvent.shape);
const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;

let app: IsolatedApp;
const keys = { writer: { key: "", keyId: "" }, reader: "", narrow: { key: "", keyId: "" }, otherStore: "" };
let storeA = "";
let ownerEmail = "";
let cookie = "";

const req = (method: string, path: string, key: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
  sellerRequest(app.baseUrl, method, `/api/v1${path}`, { key, ...options });

/** The store's events, newest first, straight from the table (what the API lists is checked apart). */
async function eventsOf(storeId: string) {
  return (await app.pool.query(`SELECT * FROM audit_events WHERE store_id = $1 ORDER BY created_at DESC, id DESC`, [storeId])).rows;
}

async function formPost(path: string, fields: Record<string, string>, withCookie = cookie) {
  return fetch(new URL(path, app.baseUrl), {
    method: "POST",
    body: new URLSearchParams(fields).toString(),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "Sec-Fetch-Site": "same-origin",
      Origin: app.baseUrl,
      Cookie: withCookie,
      "X-Forwarded-For": `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
    },
    redirect: "manual",
  });
}

beforeAll(async () => {
  app = await startIsolatedApp("seller-audit");
  storeA = await storeIdOf(app.pool, "fixture-store-a");
  keys.writer = await createTestKey(app.pool, "fixture-store-a", ["listings:read", "listings:write", "webhooks:write"], "writer");
  keys.reader = (await createTestKey(app.pool, "fixture-store-a", ["audit:read"])).key;
  keys.narrow = await createTestKey(app.pool, "fixture-store-a", ["listings:read"], "narrow");
  keys.otherStore = (await createTestKey(app.pool, "fixture-store-b", ["audit:read", "listings:write"])).key;
  ownerEmail = `audit-owner-${randomBytes(4).toString("hex")}@example.com`;
  const { rows } = await app.pool.query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, 'Owner', 'store_owner', $2) RETURNING id`, [ownerEmail, await hashPassword(PASSWORD)]);
  await app.pool.query(`INSERT INTO store_owners (store_id, user_id) VALUES ($1, $2)`, [storeA, rows[0].id]);
  const signedIn = await formPost("/signin/password", { email: ownerEmail, password: PASSWORD, next: "/seller" }, "");
  expect(signedIn.status).toBe(303);
  cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="))!.split(";", 1)[0]!;
});

afterAll(async () => {
  await app?.stop();
});

describe("the seller API's writes", { timeout: 120_000 }, () => {
  it("a change is recorded with its actor, action, target and request id; a replay records nothing more", async () => {
    const ids = await seedIds(app.pool);
    const before = (await eventsOf(storeA)).length;
    const sku = uniqueSku("AUD");
    const res = await req("POST", "/listings", keys.writer.key, {
      body: { product_id: ids.productId, sku, condition: "new", price_cents: 1000, quantity: 3 },
      headers: { "Idempotency-Key": `audit-${sku}` },
    });
    expect(res.status, res.text).toBe(201);
    const [event, ...rest] = await eventsOf(storeA);
    expect(rest).toHaveLength(before);
    expect(event).toMatchObject({
      actor_type: "api_key",
      actor_id: `mk_live_${keys.writer.keyId}`,
      actor_label: `mk_live_${keys.writer.keyId}`,
      action: "listings.create",
      target_type: "listing",
      target_id: res.json.data.id,
      outcome: "succeeded",
      error_code: null,
      request_id: res.headers.get("x-request-id"),
    });
    // The same key again: the answer is replayed, and nothing is recorded.
    const again = await req("POST", "/listings", keys.writer.key, {
      body: { product_id: ids.productId, sku, condition: "new", price_cents: 1000, quantity: 3 },
      headers: { "Idempotency-Key": `audit-${sku}` },
    });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await eventsOf(storeA)).toHaveLength(before + 1);
  });

  it("refusals are recorded with their code, and the change they refused is not", async () => {
    const ids = await seedIds(app.pool);
    const listing = await createListingVia(app.baseUrl, keys.writer.key, { product_id: ids.productId, sku: uniqueSku("AUD"), condition: "new", price_cents: 1500, quantity: 2 });
    const cases = [
      { res: await req("PATCH", `/listings/${listing.id}`, keys.narrow.key, { body: { price_cents: 5 } }), code: "scope_missing", keyId: keys.narrow.keyId, action: "listings.update", target: listing.id },
      { res: await req("PATCH", `/listings/${listing.id}`, keys.writer.key, { body: { price_cents: -5 } }), code: "parameter_invalid", keyId: keys.writer.keyId, action: "listings.update", target: listing.id },
      { res: await req("POST", `/listings/${listing.id}/status`, keys.writer.key, { body: { status: "archived" } }), code: null, keyId: keys.writer.keyId, action: "listings.status", target: listing.id },
      { res: await req("PATCH", `/listings/00000000-0000-4000-8000-000000000000`, keys.writer.key, { body: { price_cents: 5 } }), code: "listing_not_found", keyId: keys.writer.keyId, action: "listings.update", target: "00000000-0000-4000-8000-000000000000" },
      { res: await req("POST", "/webhook-endpoints", keys.writer.key, { body: { url: "http://example.com/", events: ["order.created"] } }), code: "parameter_invalid", keyId: keys.writer.keyId, action: "webhook_endpoints.create", target: null },
    ];
    const events = await eventsOf(storeA);
    for (const c of cases) {
      const requestId = c.res.headers.get("x-request-id");
      const recorded = events.filter((e) => e.request_id === requestId);
      expect(recorded, `${c.action} ${c.res.status}`).toHaveLength(1);
      expect(recorded[0]).toMatchObject({
        actor_id: `mk_live_${c.keyId}`,
        action: c.action,
        target_id: c.target,
        outcome: c.code === null ? "succeeded" : "refused",
        error_code: c.code ?? null,
      });
      if (c.code) expect(c.res.json.error.code).toBe(c.code);
    }
    // The refused price change changed nothing.
    const { rows } = await app.pool.query(`SELECT price_cents FROM listings WHERE id = $1`, [listing.id]);
    expect(rows[0].price_cents).toBe(listing.price_cents);
  });

  it("GET /audit-events: exact fields, newest first, cursor-paged, only the store's own, with audit:read only", async () => {
    const first = await req("GET", "/audit-events?limit=2", keys.reader);
    expect(first.status, first.text).toBe(200);
    expectExactKeys(first.json, ["data", "next_cursor", "meta"], "list envelope");
    for (const e of first.json.data) {
      expectExactKeys(e, EVENT_KEYS, "audit_event");
      expectExactKeys(e.actor, ["type", "id", "label"], "actor");
      expect(AuditEvent.safeParse(e).success).toBe(true);
    }
    const all: any[] = [...first.json.data];
    let cursor = first.json.next_cursor;
    while (cursor) {
      const next = await req("GET", `/audit-events?limit=2&cursor=${encodeURIComponent(cursor)}`, keys.reader);
      all.push(...next.json.data);
      cursor = next.json.next_cursor;
    }
    const table = await eventsOf(storeA);
    expect(all.map((e) => e.id)).toEqual(table.map((e) => e.id));
    expect(all.some((e) => e.outcome === "refused")).toBe(true);
    // Store B's key sees none of A's events; a key without audit:read none at all.
    const other = await req("GET", "/audit-events?limit=100", keys.otherStore);
    expect(other.json.data.filter((e: any) => table.some((t) => t.id === e.id))).toEqual([]);
    expect((await req("GET", "/audit-events", keys.writer.key)).json.error.code).toBe("scope_missing");
    expect((await req("GET", "/audit-events?cursor=bogus", keys.reader)).json.error).toMatchObject({ code: "parameter_invalid", param: "cursor" });
  });
});

describe("the dashboard and the operator", { timeout: 120_000 }, () => {
  it("an owner's key creation and revocation are the owner's; a refused form is recorded refused; the log page lists them", async () => {
    const created = await formPost("/seller/fixture-store-a/keys/create", { name: "From the dashboard", "scope.listings:read": "on" });
    expect(created.status).toBe(303);
    const keyId = /\/seller\/fixture-store-a\/keys\/([a-z0-9]{16})\/created$/.exec(created.headers.get("location") ?? "")![1]!;
    const [createdEvent] = await eventsOf(storeA);
    expect(createdEvent).toMatchObject({ actor_type: "user", actor_label: ownerEmail, action: "api_keys.create", target_type: "api_key", target_id: `mk_live_${keyId}`, outcome: "succeeded" });
    expect(createdEvent.request_id).toMatch(/^req_/);

    expect((await formPost(`/seller/fixture-store-a/keys/${keyId}/revoke`, {})).status).toBe(303);
    expect((await eventsOf(storeA))[0]).toMatchObject({ actor_type: "user", action: "api_keys.revoke", target_id: `mk_live_${keyId}`, outcome: "succeeded" });

    // A key with no scope is refused by the domain: recorded as refused, nothing created.
    const keysBefore = (await app.pool.query(`SELECT count(*)::int AS n FROM api_keys WHERE store_id = $1`, [storeA])).rows[0].n;
    expect((await formPost("/seller/fixture-store-a/keys/create", { name: "No scopes" })).status).toBe(303);
    expect((await eventsOf(storeA))[0]).toMatchObject({ actor_type: "user", action: "api_keys.create", outcome: "refused", error_code: "parameter_invalid" });
    expect((await app.pool.query(`SELECT count(*)::int AS n FROM api_keys WHERE store_id = $1`, [storeA])).rows[0].n).toBe(keysBefore);

    // A webhook endpoint the guard refuses, from the dashboard: recorded refused, as the owner's.
    expect((await formPost("/seller/fixture-store-a/webhooks/create", { url: "https://10.0.0.1/hook", "event.order.created": "on" })).status).toBe(303);
    expect((await eventsOf(storeA))[0]).toMatchObject({ actor_type: "user", action: "webhook_endpoints.create", outcome: "refused", error_code: "parameter_invalid" });

    const page = await fetch(new URL("/seller/fixture-store-a/audit", app.baseUrl), { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-audit-action="api_keys.revoke"');
    expect(html).toContain('data-audit-outcome="refused"');
    expect(html).toContain(ownerEmail);
    // Another store's log is not this owner's to read.
    expect((await fetch(new URL("/seller/fixture-store-b/audit", app.baseUrl), { headers: { Cookie: cookie } })).status).toBe(404);
  });

  it("the operator's key create and revoke are the operator's", async () => {
    const run = promisify(execFile);
    const env = { ...process.env, DATABASE_URL: app.database.databaseUrl };
    const { stdout } = await run("node", ["--import", "tsx", "scripts/admin.ts", "key", "create", "--store", "fixture-store-a", "--scopes", "listings:read"], { env });
    const keyId = /mk_live_([a-z0-9]{16})\./.exec(stdout)![1]!;
    expect((await eventsOf(storeA))[0]).toMatchObject({ actor_type: "operator", actor_id: null, actor_label: "operator", action: "api_keys.create", target_id: `mk_live_${keyId}`, request_id: null });
    await run("node", ["--import", "tsx", "scripts/admin.ts", "key", "revoke", keyId], { env });
    expect((await eventsOf(storeA))[0]).toMatchObject({ actor_type: "operator", action: "api_keys.revoke", target_id: `mk_live_${keyId}` });
  });
});
