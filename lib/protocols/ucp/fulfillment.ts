import { formatCents } from "@/lib/catalog/money";
import { businessDays } from "@/lib/orders/shipping";
import { AppError } from "@/lib/errors";
import type { SavedAddress } from "@/lib/accounts/addresses";
import type { AddressInput } from "@/lib/orders/address";
import type { Quote } from "@/lib/checkout";
import type { BuyerData, FulfillmentRequestData, PostalAddressData, UcpMessage, UcpTotal } from "./shapes";

/**
 * The fulfillment extension (dev.ucp.shopping.fulfillment, 2026-01-11) over a marketplace
 * checkout: one shipping method whose destinations the platform gives, one group holding every
 * line, and one option, `standard`, whose price is the sum of each store's shipping (each store
 * ships its own parcel; the option's description names them). A platform that has not declared
 * `supports_multi_group` gets one group per method, as the extension says. Pure: the adapter
 * stores the state and prices the quote.
 */

export const METHOD_ID = "fm_shipping";
export const GROUP_ID = "fg_1";
export const STANDARD_OPTION = "standard";

export interface Destination extends PostalAddressData {
  id: string;
}

/** What the platform chose, as kept between requests. */
export interface FulfillmentState {
  destinations: Destination[];
  selected_destination_id: string | null;
  selected_option_id: string | null;
}

export const EMPTY_FULFILLMENT: FulfillmentState = { destinations: [], selected_destination_id: null, selected_option_id: null };

/**
 * The state after a request's `fulfillment`: given destinations replace the earlier ones (each
 * without an id gets one: a linked holder's saved address it repeats gets that address's id),
 * omitted ones stay; a shipping method without any destination yet offers a linked holder's
 * `saved` addresses (never anyone else's); a given selection replaces the earlier one (null
 * clears it), an omitted one stays. Only shipping is offered: a pickup method is 400 (an update's
 * method without a `type` is the shipping method).
 */
export function mergeFulfillment(previous: FulfillmentState, request: FulfillmentRequestData | undefined, saved: readonly Destination[] = []): FulfillmentState {
  const method = request?.methods?.[0];
  if (!request?.methods || !method) return previous;
  if (request.methods.length > 1 || (method.type ?? "shipping") !== "shipping") {
    throw new AppError("parameter_invalid", "Only one shipping method is offered: every store ships to one destination.", "$.fulfillment.methods");
  }
  const next: FulfillmentState = { ...previous };
  if (method.destinations !== undefined) {
    const seen = new Set<string>();
    next.destinations = method.destinations.map((d, i) => {
      const id = d.id ?? saved.find((s) => samePlace(s, d))?.id ?? `dest_${i + 1}`;
      if (seen.has(id)) throw new AppError("parameter_invalid", `Two destinations share the id '${id}'.`, `$.fulfillment.methods[0].destinations[${i}].id`);
      seen.add(id);
      return { ...d, id };
    });
  } else if (next.destinations.length === 0 && saved.length > 0) {
    next.destinations = [...saved];
  }
  if (method.selected_destination_id !== undefined) next.selected_destination_id = method.selected_destination_id;
  const group = method.groups?.[0];
  if (group && group.selected_option_id !== undefined) next.selected_option_id = group.selected_option_id;
  if (next.selected_destination_id !== null && !next.destinations.some((d) => d.id === next.selected_destination_id)) {
    throw new AppError(
      "parameter_invalid",
      `No destination has the id '${next.selected_destination_id}'.`,
      "$.fulfillment.methods[0].selected_destination_id",
    );
  }
  return next;
}

/** A linked holder's saved addresses as destinations (`addr_<address id>`), the default first. */
export function savedDestinations(addresses: ReadonlyArray<SavedAddress>): Destination[] {
  return addresses.map((a) => ({
    id: `addr_${a.id}`,
    full_name: a.full_name,
    street_address: a.line1,
    ...(a.line2 ? { extended_address: a.line2 } : {}),
    address_locality: a.city,
    address_region: a.state,
    postal_code: a.postal_code,
    address_country: a.country,
  }));
}

/** The same place: street, locality, region, postal code and country alike (case aside). */
function samePlace(a: PostalAddressData, b: PostalAddressData): boolean {
  const norm = (v: string | undefined) => (v ?? "").trim().toLowerCase();
  return (["street_address", "address_locality", "address_region", "postal_code", "address_country"] as const).every((k) => norm(a[k]) === norm(b[k]));
}

export function selectedDestination(state: FulfillmentState): Destination | null {
  return state.destinations.find((d) => d.id === state.selected_destination_id) ?? null;
}

/** The country shipping is quoted for: the selected destination's (upper-cased), if it has one. */
export function quoteCountry(state: FulfillmentState): string | null {
  const country = selectedDestination(state)?.address_country;
  return country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null;
}

const DEST_FIELDS: Record<keyof Omit<AddressInput, "country" | "line2">, keyof PostalAddressData> = {
  full_name: "full_name",
  line1: "street_address",
  city: "address_locality",
  state: "address_region",
  postal_code: "postal_code",
};

/** A destination as an address checkout takes; the name from the destination, else the buyer. */
export function addressOf(destination: Destination, buyer: BuyerData | null): AddressInput {
  const joined = (first?: string, last?: string) => [first, last].filter(Boolean).join(" ") || undefined;
  return {
    full_name: destination.full_name ?? joined(destination.first_name, destination.last_name) ?? buyer?.full_name ?? joined(buyer?.first_name, buyer?.last_name),
    line1: destination.street_address,
    line2: destination.extended_address ?? null,
    city: destination.address_locality,
    state: destination.address_region,
    postal_code: destination.postal_code,
    country: destination.address_country?.toUpperCase(),
  };
}

/** The UCP path of a field of the selected destination, from checkout's name for it. */
export function destinationPath(state: FulfillmentState, field: string): string {
  const index = state.destinations.findIndex((d) => d.id === state.selected_destination_id);
  const name = field === "country" ? "address_country" : field === "line2" ? "extended_address" : (DEST_FIELDS[field as keyof typeof DEST_FIELDS] ?? field);
  return `$.fulfillment.methods[0].destinations[${Math.max(index, 0)}].${name}`;
}

export interface ShippingOption {
  id: string;
  title: string;
  description?: string;
  totals: UcpTotal[];
}

/** The options of a quote: `standard`, each store's parcel named in its description. */
export function shippingOptions(quote: Quote): ShippingOption[] {
  if (quote.stores.length === 0) return [];
  const parcels = quote.stores.map(
    (s) =>
      `${s.store_name} ${s.shipping_cents === 0 ? "free" : formatCents(s.shipping_cents)}` +
      (s.terms?.delivery ? `, arriving in ${businessDays(s.terms.delivery.min_days, s.terms.delivery.max_days)}` : ""),
  );
  return [
    {
      id: STANDARD_OPTION,
      title: "Standard shipping",
      description: quote.stores.length === 1 ? `Shipped by ${parcels[0]}.` : `Each store ships its own parcel: ${parcels.join(", ")}.`,
      totals: [
        { type: "subtotal", amount: quote.shipping_cents },
        { type: "total", amount: quote.shipping_cents },
      ],
    },
  ];
}

/** The `fulfillment` of an answer; `lineIds` are the ids of the lines that ship. */
export function fulfillmentOf(state: FulfillmentState, quote: Quote, lineIds: string[]) {
  const destinationKnown = quoteCountry(state) !== null;
  const options = destinationKnown ? shippingOptions(quote) : [];
  const selected = options.some((o) => o.id === state.selected_option_id) ? state.selected_option_id : null;
  return {
    methods: [
      {
        id: METHOD_ID,
        type: "shipping" as const,
        line_item_ids: lineIds,
        // Absent rather than empty when there are none (the extension's examples, and platforms
        // that test for them).
        ...(state.destinations.length ? { destinations: state.destinations } : {}),
        ...(state.selected_destination_id ? { selected_destination_id: state.selected_destination_id } : {}),
        ...(destinationKnown ? { groups: [{ id: GROUP_ID, line_item_ids: lineIds, ...(selected ? { selected_option_id: selected } : {}), options }] } : {}),
      },
    ],
  };
}

/** Whether the selected option is one the quote offers. */
export function optionChosen(state: FulfillmentState, quote: Quote): boolean {
  return quoteCountry(state) !== null && shippingOptions(quote).some((o) => o.id === state.selected_option_id);
}

export const FULFILLMENT_MISSING = "Fulfillment address and option must be selected before completion.";

/** What the fulfillment still needs, as UCP messages. */
export function fulfillmentMessages(state: FulfillmentState, quote: Quote): UcpMessage[] {
  if (!selectedDestination(state)) {
    return [{ type: "error", code: "missing", path: "$.fulfillment.methods[0].selected_destination_id", content: FULFILLMENT_MISSING, severity: "recoverable" }];
  }
  if (quoteCountry(state) === null) {
    return [{ type: "error", code: "missing", path: destinationPath(state, "country"), content: "Give the destination's country (ISO 3166-1 alpha-2).", severity: "recoverable" }];
  }
  if (!optionChosen(state, quote)) {
    const given = state.selected_option_id !== null;
    return [
      {
        type: "error",
        code: given ? "invalid" : "missing",
        path: "$.fulfillment.methods[0].groups[0].selected_option_id",
        content: given ? `No option '${state.selected_option_id}' is offered; choose one of the group's options.` : FULFILLMENT_MISSING,
        severity: "recoverable",
      },
    ];
  }
  return [];
}
