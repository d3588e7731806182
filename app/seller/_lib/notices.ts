import type { CancelReason } from "@/lib/schemas/seller/orders";

/** What a successful dashboard post says on the page it leads to (`?notice=`). */
export const LISTING_NOTICES: Record<string, string> = {
  created: "Listing created as a draft. Publish it when it is ready.",
  updated: "Listing saved.",
  quantity: "Quantity saved.",
  published: "Listing published: shoppers can see it now.",
  active: "Listing activated: shoppers can see it again.",
  inactive: "Listing deactivated: it is hidden from shoppers until you activate it.",
  archived: "Listing archived. It is read-only from now on.",
};

export const SHIPPING_NOTICES: Record<string, string> = {
  created: "Shipping template created.",
  updated: "Shipping template saved.",
};

export const KEY_NOTICES: Record<string, string> = {
  revoked: "Key revoked: it stops working at once.",
};

export const WEBHOOK_NOTICES: Record<string, string> = {
  updated: "Endpoint saved.",
  disabled: "Endpoint disabled: nothing is sent to it until you enable it, and deliveries still waiting are skipped.",
  enabled: "Endpoint enabled: new events are sent to it again.",
  deleted: "Endpoint deleted, with its delivery log.",
  replayed: "Replay queued: the event is sent again as a new delivery, with the same event id.",
};

export const ORDER_NOTICES: Record<string, string> = {
  shipped: "Marked shipped. The buyer was e-mailed the tracking number.",
  delivered: "Marked delivered.",
  cancelled: "Cancelled: the items are back in stock, and the buyer was refunded and e-mailed.",
};

export const RETURN_NOTICES: Record<string, string> = {
  approved: "Return approved: the buyer can send the items back.",
  received: "Return marked received.",
  refunded: "Return refunded: the money goes back to the buyer's payment method, and the buyer was e-mailed.",
  rejected: "Return rejected.",
};

/** The cancel reasons as the desk names them. */
export const CANCEL_REASON_LABELS: Record<CancelReason, string> = {
  out_of_stock: "Out of stock",
  cannot_ship: "Cannot ship to this address",
  buyer_request: "The buyer asked to cancel",
  other: "Other",
};
