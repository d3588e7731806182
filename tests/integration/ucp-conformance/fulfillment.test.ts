/**
 * Port of fulfillment_test.py: a destination brings the shipping options, choosing one adds it to
 * the total; options follow the destination's country and the stores' free-shipping rules; a
 * linked holder's saved addresses are offered as destinations, while a platform knowing only a
 * buyer's e-mail never gets them.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeIdOf } from "../../helpers/seller";
import { ADDRESS, total, UcpHarness } from "../../helpers/ucp";

let ucp: UcpHarness;
beforeAll(async () => (ucp = await UcpHarness.start("ucp-fulfillment")));
afterAll(() => ucp?.stop());

/** A listing of store B shipping with a template: `us` cents to the US, `elsewhere` cents elsewhere, free from `freeOver`. */
async function shippedListing(price: number, us: number, elsewhere: number, freeOver: number | null = null): Promise<string> {
  const pool = ucp.app.pool;
  const store = await storeIdOf(pool, "fixture-store-b");
  const template = (await pool.query(`INSERT INTO shipping_templates (store_id, name) VALUES ($1, $2) RETURNING id`, [store, `T-${randomBytes(3).toString("hex")}`])).rows[0].id;
  await pool.query(
    `INSERT INTO shipping_rates (template_id, region, service, price_cents, free_over_cents, min_days, max_days) VALUES ($1, 'US', 'standard', $2, $4, 2, 5), ($1, '*', 'standard', $3, NULL, 5, 12)`,
    [template, us, elsewhere, freeOver],
  );
  const product = (await pool.query(`SELECT id FROM products WHERE publicly_listed ORDER BY slug LIMIT 1 OFFSET 1`)).rows[0].id;
  return (
    await pool.query(
      `INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, allow_backorder, status, published_at, shipping_template_id)
       VALUES ($1, $2, $3, 'new', $4, $4, 500, false, 'active', now(), $5) RETURNING id`,
      [store, product, `UCPF-${randomBytes(3).toString("hex")}`, price, template],
    )
  ).rows[0].id;
}

const method = (checkout: any) => checkout.fulfillment.methods[0];

const option = (checkout: any) => method(checkout).groups?.[0]?.options?.[0];

describe("fulfillment_test", () => {
  it("test_fulfillment_flow", async () => {
    const checkout = await ucp.createCheckout({ fulfillment: false });
    expect(method(checkout).groups).toBeUndefined();
    const withAddress = await ucp.update(checkout, { fulfillment: { methods: [{ type: "shipping", destinations: [{ id: "dest_1", ...ADDRESS }], selected_destination_id: "dest_1" }] } });
    expect(withAddress.status).toBe("incomplete");
    const options = method(withAddress).groups[0].options;
    expect(options.map((o: any) => o.id)).toEqual(["standard"]);
    const chosen = await ucp.update(withAddress, { fulfillment: { methods: [{ type: "shipping", groups: [{ selected_option_id: options[0].id }] }] } });
    expect(chosen.status).toBe("ready_for_complete");
    expect(method(chosen).groups[0].selected_option_id).toBe("standard");
    expect(total(chosen.totals, "total")).toBe(3500 + total(options[0].totals, "total")!);
  });

  it("an update's method needs no type (fulfillment_method.update_req); a create's does (create_req), and pickup is refused", async () => {
    const checkout = await ucp.createCheckout({ fulfillment: false });
    const chosen = await ucp.update(checkout, {
      fulfillment: { methods: [{ destinations: [{ id: "dest_1", ...ADDRESS }], selected_destination_id: "dest_1", groups: [{ selected_option_id: "standard" }] }] },
    });
    expect(chosen.status).toBe("ready_for_complete");
    const untyped = { ...ucp.createPayload(), fulfillment: { methods: [{ destinations: [{ id: "d", ...ADDRESS }] }] } };
    const created = await ucp.request("POST", "/checkout-sessions", untyped);
    expect([created.status, created.json.messages[0].path], created.text).toEqual([400, "$.fulfillment.methods[0].type"]);
    const pickup = await ucp.request("PUT", `/checkout-sessions/${checkout.id}`, ucp.updatePayload(chosen, { fulfillment: { methods: [{ type: "pickup" }] } }));
    expect([pickup.status, pickup.json.messages[0].path]).toEqual([400, "$.fulfillment.methods"]);
  });

  it("test_dynamic_fulfillment", async () => {
    const item = await shippedListing(2000, 500, 2500);
    const checkout = await ucp.createCheckout({ itemId: item, fulfillment: false });
    const us = await ucp.update(checkout, { fulfillment: { methods: [{ type: "shipping", destinations: [{ id: "dest_us", address_country: "US", postal_code: "62704" }], selected_destination_id: "dest_us" }] } });
    expect(total(option(us).totals, "total")).toBe(500);
    const ca = await ucp.update(us, { fulfillment: { methods: [{ type: "shipping", destinations: [{ id: "dest_ca", address_country: "CA", postal_code: "M5V 2H1" }], selected_destination_id: "dest_ca" }] } });
    expect(total(option(ca).totals, "total")).toBe(2500);
    // A country alone prices the options; once one is chosen, all the address lacks is asked for at once.
    const chosen = await ucp.update(ca, { fulfillment: { methods: [{ type: "shipping", groups: [{ selected_option_id: "standard" }] }] } });
    expect(chosen.status).toBe("incomplete");
    expect(chosen.messages.map((m: any) => [m.code, m.path])).toEqual([
      ["missing", "$.fulfillment.methods[0].destinations[0].street_address"],
      ["missing", "$.fulfillment.methods[0].destinations[0].address_locality"],
      ["missing", "$.fulfillment.methods[0].destinations[0].address_region"],
    ]);
  });

  it("test_unknown_customer_no_address", async () => {
    const checkout = await ucp.createCheckout({ fulfillment: false, buyer: { email: `nobody-${randomBytes(4).toString("hex")}@example.com` } });
    const updated = await ucp.update(checkout, { fulfillment: { methods: [{ type: "shipping" }] } });
    expect(method(updated).destinations).toBeUndefined();
  });

  it("test_known_customer_no_address", async () => {
    // An account holder with a saved address, known by e-mail only: nothing of theirs is shown.
    const email = `holder-${randomBytes(4).toString("hex")}@example.com`;
    const user = (await ucp.app.pool.query(`INSERT INTO users (email, name, role) VALUES ($1, 'Hal Holder', 'shopper') RETURNING id`, [email])).rows[0].id;
    await ucp.app.pool.query(
      `INSERT INTO addresses (user_id, full_name, line1, city, state, postal_code, country, is_default) VALUES ($1, 'Hal Holder', '9 Secret Lane', 'Portland', 'OR', '97201', 'US', true)`,
      [user],
    );
    const checkout = await ucp.createCheckout({ fulfillment: false, buyer: { email } });
    const updated = await ucp.update(checkout, { fulfillment: { methods: [{ type: "shipping" }] } });
    expect(method(updated).destinations).toBeUndefined();
    expect(JSON.stringify(updated)).not.toContain("Secret Lane");
  });

  // A known customer, here, is an account holder who linked the platform (UCP identity linking):
  // their saved addresses are offered as destinations. An e-mail address alone reveals nothing.
  it("test_known_customer_one_address", async () => {
    const holder = await ucp.linkedHolder();
    const checkout = await ucp.createCheckout({ fulfillment: false, headers: holder.headers() });
    const updated = await ucp.update(checkout, { fulfillment: { methods: [{ type: "shipping" }] } }, 200, holder.headers());
    expect(method(updated).destinations.map((d: any) => [d.street_address, d.address_country])).toEqual([["5 Elm Road", "US"]]);
  });

  it("test_known_customer_multiple_addresses_selection", async () => {
    const holder = await ucp.linkedHolder();
    await ucp.app.pool.query(
      `INSERT INTO addresses (user_id, full_name, line1, city, state, postal_code, country, is_default) VALUES ($1, 'Hal Holder', '456 Oak Ave', 'Metropolis', 'NY', '10012', 'US', false)`,
      [holder.id],
    );
    const checkout = await ucp.createCheckout({ fulfillment: false, headers: holder.headers() });
    const offered = await ucp.update(checkout, { fulfillment: { methods: [{ type: "shipping" }] } }, 200, holder.headers());
    const destinations = method(offered).destinations;
    expect(destinations.map((d: any) => d.street_address)).toEqual(["5 Elm Road", "456 Oak Ave"]);
    const chosen = await ucp.update(offered, { fulfillment: { methods: [{ type: "shipping", selected_destination_id: destinations[1].id }] } }, 200, holder.headers());
    expect(method(chosen).destinations).toEqual(destinations);
    const selected = method(chosen).destinations.find((d: any) => d.id === method(chosen).selected_destination_id);
    expect([selected.street_address, selected.postal_code]).toEqual(["456 Oak Ave", "10012"]);
  });

  it("test_known_customer_new_address", async () => {
    const item = await shippedListing(2000, 500, 2500);
    const checkout = await ucp.createCheckout({ itemId: item });
    const updated = await ucp.update(checkout, {
      fulfillment: { methods: [{ type: "shipping", destinations: [{ id: "dest_new", full_name: "Ada Lovelace", street_address: "1 King St W", address_locality: "Toronto", address_region: "ON", postal_code: "M5V 2H1", address_country: "CA" }], selected_destination_id: "dest_new" }] },
    });
    expect(method(updated).destinations.map((d: any) => d.id)).toEqual(["dest_new"]);
    expect(total(option(updated).totals, "total")).toBe(2500);
  });

  it.skip(
    "test_new_user_new_address_persistence (not applicable: an account's addresses are saved only by its holder, signed in, on /account; a platform's destination is never saved to an account, nor to an e-mail address)",
    () => {},
  );

  it("test_known_user_existing_address_reuse", async () => {
    const holder = await ucp.linkedHolder();
    const checkout = await ucp.createCheckout({ fulfillment: false, headers: holder.headers() });
    const saved = (await ucp.app.pool.query(`SELECT id FROM addresses WHERE user_id = $1`, [holder.id])).rows[0].id;
    const updated = await ucp.update(
      checkout,
      { fulfillment: { methods: [{ type: "shipping", destinations: [{ street_address: "5 Elm Road", address_locality: "Portland", address_region: "OR", postal_code: "97201", address_country: "US" }] }] } },
      200,
      holder.headers(),
    );
    expect(method(updated).destinations.map((d: any) => d.id)).toEqual([`addr_${saved}`]);
  });

  it("test_free_shipping_on_expensive_order", async () => {
    const item = await shippedListing(2000, 700, 2500, 5000);
    const one = await ucp.createCheckout({ itemId: item });
    expect(total(option(one).totals, "total")).toBe(700);
    const three = await ucp.createCheckout({ itemId: item, quantity: 3 });
    expect(total(option(three).totals, "total")).toBe(0);
    expect(option(three).description).toContain("free");
    expect(total(three.totals, "total")).toBe(6000);
  });

  it("test_free_shipping_for_specific_item", async () => {
    // The suite's item ships free: so does a listing whose store charges no shipping for it.
    const checkout = await ucp.createCheckout();
    expect(total(option(checkout).totals, "total")).toBe(0);
    expect(option(checkout).description).toContain("free");
  });
});
