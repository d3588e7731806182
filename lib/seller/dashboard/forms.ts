import { AppError } from "@/lib/errors";
import { WEBHOOK_EVENT_TYPES } from "@/lib/schemas/seller/webhooks";

/**
 * Dashboard forms to the seller API's JSON shapes. A form post is turned into exactly the body
 * the API would take, then validated by the API's own schema and handed to the same domain
 * function, so a change made in the dashboard is the same as one made through the API. What a
 * form cannot express as JSON (a price typed as "19.99", a blank optional field) is settled here;
 * everything else is left to the schema. A problem is reported against the form field the person
 * typed into (`price`, `rates.2.min_days`), never the JSON name.
 */

export type Form = Record<string, string>;

export interface Converted {
  json: Record<string, unknown>;
  /** The form field a JSON parameter came from (`price_cents` -> `price`). */
  field: (param: string | undefined) => string | undefined;
}

/** Form fields and how the pages label them; error messages use the labels. */
export const FIELD_LABELS: Record<string, string> = {
  product_id: "Product",
  gtin: "GTIN",
  product_title: "Product title",
  product_category: "Category",
  product_brand: "Brand",
  product_description: "Description",
  sku: "SKU",
  condition: "Condition",
  price: "Price (US dollars)",
  list_price: "List price (US dollars)",
  quantity: "Quantity",
  allow_backorder: "Allow backorder",
  shipping_template_id: "Shipping template",
  name: "Name",
  handling_days: "Handling days",
  scopes: "Scopes",
  rates: "Rates",
  tracking_number: "Tracking number",
  url: "Endpoint URL",
  events: "Events",
  description: "Description",
};

const RATE_FIELD_LABELS: Record<string, string> = {
  region: "region",
  service: "service",
  price: "price (US dollars)",
  free_over: "free over (US dollars)",
  min_days: "min days",
  max_days: "max days",
};

export function fieldLabel(field: string | undefined): string | undefined {
  if (!field) return undefined;
  const rate = /^rates\.(\d+)\.(\w+)$/.exec(field);
  if (rate) return `Rate ${Number(rate[1]) + 1}, ${RATE_FIELD_LABELS[rate[2]!] ?? rate[2]}`;
  return FIELD_LABELS[field];
}

const DOLLARS = /^\$?([0-9]{1,9})(?:\.([0-9]{1,2}))?$/;
const INTEGER = /^-?[0-9]{1,9}$/;

/** "19.99", "$1,299", "5" to cents; anything else is refused naming `field`. */
export function dollarsToCents(value: string, field: string): number {
  const match = DOLLARS.exec(value.replace(/[\s,]/g, ""));
  if (!match) throw new AppError("parameter_invalid", `${fieldLabel(field) ?? field}: enter an amount in dollars, such as 19.99.`, field);
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

export function integerOf(value: string, field: string): number {
  const trimmed = value.trim();
  if (!INTEGER.test(trimmed)) throw new AppError("parameter_invalid", `${fieldLabel(field) ?? field}: enter a whole number.`, field);
  return Number(trimmed);
}

const blank = (v: string | undefined): v is undefined => v === undefined || v.trim() === "";

/** Field names of a flat form map one to one, except where `renames` says otherwise. */
function mapper(renames: Record<string, string>) {
  return (param: string | undefined) => (param === undefined ? undefined : (renames[param] ?? param));
}

const LISTING_RENAMES = {
  price_cents: "price",
  list_price_cents: "list_price",
  "product.title": "product_title",
  "product.category": "product_category",
  "product.brand": "product_brand",
  "product.description": "product_description",
  product: "product_title",
};

/**
 * The create-listing form: `product_id` (an existing product chosen on the page) or a new
 * product described by `product_title`, `product_category`, `product_brand`,
 * `product_description`; then the listing's own fields.
 */
export function listingCreateJson(form: Form): Converted {
  const json: Record<string, unknown> = {};
  if (!blank(form.product_id)) {
    json.product_id = form.product_id;
  } else {
    const product: Record<string, unknown> = { title: form.product_title ?? "" };
    if (!blank(form.product_category)) product.category = form.product_category;
    if (!blank(form.product_brand)) product.brand = form.product_brand;
    if (!blank(form.product_description)) product.description = form.product_description;
    json.product = product;
  }
  Object.assign(json, listingFields(form, { create: true }));
  return { json, field: mapper(LISTING_RENAMES) };
}

/**
 * The edit form: only the fields that differ from the values the form was shown with (hidden
 * `was_<field>` inputs), so a post never overwrites what it did not change, such as stock sold
 * through the API while the page was open.
 */
export function listingUpdateJson(form: Form): Converted {
  const all = listingFields(form, { create: false });
  const was = listingFields(
    Object.fromEntries(Object.entries(form).flatMap(([k, v]) => (k.startsWith("was_") ? [[k.slice(4), v]] : []))),
    { create: false, lenient: true },
  );
  const json: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(all)) {
    if (!(name in was) || was[name] !== value) json[name] = value;
  }
  return { json, field: mapper(LISTING_RENAMES) };
}

function listingFields(form: Form, { create, lenient = false }: { create: boolean; lenient?: boolean }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const attempt = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      if (!lenient) throw err;
    }
  };
  if (form.sku !== undefined) out.sku = form.sku.trim();
  if (form.condition !== undefined) out.condition = form.condition;
  if (!blank(form.price)) attempt(() => (out.price_cents = dollarsToCents(form.price!, "price")));
  else if (create) out.price_cents = undefined;
  else if (form.price !== undefined && !lenient) throw new AppError("parameter_missing", "Price (US dollars): enter the price.", "price");
  if (!blank(form.list_price)) attempt(() => (out.list_price_cents = dollarsToCents(form.list_price!, "list_price")));
  else if (!create && form.list_price !== undefined && !blank(form.price)) out.list_price_cents = out.price_cents;
  if (!blank(form.quantity)) attempt(() => (out.quantity = integerOf(form.quantity!, "quantity")));
  // A checkbox is absent when unticked: the form says it holds one with `has_allow_backorder`.
  if (form.has_allow_backorder !== undefined || form.allow_backorder !== undefined) out.allow_backorder = form.allow_backorder === "on";
  if (form.shipping_template_id !== undefined) {
    if (!blank(form.shipping_template_id)) out.shipping_template_id = form.shipping_template_id;
    else if (!create) out.shipping_template_id = null;
  }
  return out;
}

/** How many rate rows a template form has at least, and at most (the API's limit). */
export const RATE_ROWS = 5;
export const RATE_ROWS_MAX = 50;
const RATE_FIELDS = ["region", "service", "price", "free_over", "min_days", "max_days"] as const;

/**
 * The shipping-template form: `name`, `handling_days` and rate rows `rates.<row>.<field>`; a row
 * with nothing typed in it (the service select aside) is ignored, so the JSON's `rates[k]` is the
 * k-th row that was filled in, and problems are reported against the row the person sees.
 */
export function shippingTemplateJson(form: Form): Converted {
  const json: Record<string, unknown> = { name: (form.name ?? "").trim() };
  if (!blank(form.handling_days)) json.handling_days = integerOf(form.handling_days!, "handling_days");
  const rows: number[] = [];
  const rates: Record<string, unknown>[] = [];
  for (let row = 0; row < RATE_ROWS_MAX; row++) {
    const value = (f: string) => form[`rates.${row}.${f}`];
    if (RATE_FIELDS.filter((f) => f !== "service").every((f) => blank(value(f)))) continue;
    const field = (f: string) => `rates.${row}.${f}`;
    const rate: Record<string, unknown> = {
      region: (value("region") ?? "").trim().toUpperCase(),
      service: value("service") ?? "standard",
      price_cents: blank(value("price")) ? undefined : dollarsToCents(value("price")!, field("price")),
      free_over_cents: blank(value("free_over")) ? null : dollarsToCents(value("free_over")!, field("free_over")),
      min_days: blank(value("min_days")) ? undefined : integerOf(value("min_days")!, field("min_days")),
      max_days: blank(value("max_days")) ? undefined : integerOf(value("max_days")!, field("max_days")),
    };
    rows.push(row);
    rates.push(rate);
  }
  json.rates = rates;
  const field = (param: string | undefined) => {
    if (param === undefined) return undefined;
    const m = /^rates\[(\d+)\](?:\.(\w+))?/.exec(param);
    if (!m) return param;
    const row = rows[Number(m[1])] ?? Number(m[1]);
    const name = m[2] === "price_cents" ? "price" : m[2] === "free_over_cents" ? "free_over" : (m[2] ?? "region");
    return `rates.${row}.${name}`;
  };
  return { json, field };
}

/**
 * The webhook endpoint form: `url`, a checkbox `event.<type>` per event type, `description`. A
 * blank description is left out of a creation and clears it on an edit; an edit sends the URL
 * only when it changed (`was_url`), so saving a description does not check the URL again.
 */
export function webhookEndpointJson(form: Form, { create }: { create: boolean }): Converted {
  const json: Record<string, unknown> = { events: WEBHOOK_EVENT_TYPES.filter((t) => form[`event.${t}`] === "on") };
  const url = (form.url ?? "").trim();
  if (create || url !== form.was_url) json.url = url;
  if (!blank(form.description)) json.description = form.description!.trim();
  else if (!create) json.description = null;
  return { json, field: (param) => (param?.startsWith("events") ? "events" : param) };
}

/**
 * An AppError's message as the dashboard shows it: the JSON name the schema quotes
 * (`'price_cents'`) becomes the label the person sees beside the field ("Price (US dollars)").
 */
export function formMessage(err: AppError, field: string | undefined): string {
  const label = fieldLabel(field);
  if (!err.param || !label) return err.message;
  const message = err.message.split(`'${err.param}'`).join(`'${label}'`);
  // The API's bounds of an amount are in cents; the form's field is in dollars.
  return err.param.endsWith("_cents") && /\d/.test(message) ? `${message} (in cents: 100 is $1.00)` : message;
}
