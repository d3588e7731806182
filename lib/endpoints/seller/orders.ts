import { apiKeyAccess } from "@/lib/http/access";
import { defineEndpoint, type Endpoint } from "@/lib/http/describe";
import { RETURN_MOVES, type ReturnMove } from "@/lib/returns/moves";
import { IdPath, itemEnvelope, listEnvelope } from "@/lib/schemas/seller/common";
import { CancelOrder, ListOrdersQuery, ListReturnsQuery, OrderNumberPath, OrderPart, ShipOrder, StoreReturn } from "@/lib/schemas/seller/orders";

// Reads need orders:read, fulfilment moves orders:write (neither implies the other, like listings').
const read = apiKeyAccess(["orders:read"]);
const write = apiKeyAccess(["orders:write"]);
const tags = ["Orders"];

export const listOrdersEndpoint = defineEndpoint({
  name: "seller.orders.list",
  method: "GET",
  path: "/orders",
  operationId: "listOrders",
  summary: "List your orders, or sync changes with updated_since",
  description:
    "Your store's parts of orders (`order_part`: your lines, your shipping charge and your fulfilment; never another " +
    "store's part of the same order). Without `updated_since`: newest order first. With `updated_since` (ISO-8601 or " +
    "Unix seconds): the sync feed, every part that changed at or after that instant (a new order, a fulfilment move), in " +
    "the order the changes committed (ties by order id), handed out only once no older transaction that could still " +
    "commit a change before it is open, so a client that pages to the end misses nothing. Page with `next_cursor` until " +
    "it is null; to sync again later, repeat the request of your last page (same `updated_since`, same `cursor`).",
  tags,
  access: read,
  query: ListOrdersQuery,
  success: { status: 200, description: "A page of your parts of orders.", schema: listEnvelope(OrderPart) },
  errors: [],
});

export const getOrderEndpoint = defineEndpoint({
  name: "seller.orders.get",
  method: "GET",
  path: "/orders/{number}",
  operationId: "getOrder",
  summary: "Retrieve your part of an order",
  description: "By the order's number (`M-10042`, any case) or id. An order with no lines of your store is `order_not_found`, as is one that does not exist.",
  tags,
  access: read,
  params: OrderNumberPath,
  success: { status: 200, description: "Your part of the order.", schema: itemEnvelope(OrderPart) },
  errors: ["order_not_found"],
});

export const shipOrderEndpoint = defineEndpoint({
  name: "seller.orders.ship",
  method: "POST",
  path: "/orders/{number}/ship",
  operationId: "shipOrder",
  summary: "Mark your part of an order shipped",
  description:
    "`placed` -> `shipped`, with the carrier's tracking number (required) and name (optional), as the dashboard's " +
    "\"Mark shipped\" does: the buyer gets an e-mail with the tracking number, and the order becomes `shipped` once " +
    "every store has shipped its part. Any other move is a 409 `order_transition_invalid` naming your part's state.",
  tags,
  access: write,
  params: OrderNumberPath,
  body: ShipOrder,
  idempotent: true,
  success: { status: 200, description: "Your part of the order, now shipped.", schema: itemEnvelope(OrderPart) },
  errors: ["order_not_found", "order_transition_invalid"],
});

export const deliverOrderEndpoint = defineEndpoint({
  name: "seller.orders.deliver",
  method: "POST",
  path: "/orders/{number}/deliver",
  operationId: "deliverOrder",
  summary: "Mark your part of an order delivered",
  description:
    "`shipped` -> `delivered`, as the dashboard's \"Mark delivered\" does; the order becomes `delivered` once every " +
    "store's part is, which opens the buyer's 30-day return window. Any other move is a 409 `order_transition_invalid`.",
  tags,
  access: write,
  params: OrderNumberPath,
  idempotent: true,
  success: { status: 200, description: "Your part of the order, now delivered.", schema: itemEnvelope(OrderPart) },
  errors: ["order_not_found", "order_transition_invalid"],
});

export const cancelOrderEndpoint = defineEndpoint({
  name: "seller.orders.cancel",
  method: "POST",
  path: "/orders/{number}/cancel",
  operationId: "cancelOrder",
  summary: "Cancel your part of an order",
  description:
    "`placed` -> `cancelled`, with the reason, as the dashboard's \"Cancel order\" does, when you cannot send it: the " +
    "units your lines took go back to your listings' stock, the buyer is refunded your lines and your shipping charge " +
    "(`refund_cents`) through the payment provider that charged the order, once, and is e-mailed why. Other stores' parts " +
    "of the order go on; the order becomes `cancelled` once every store has cancelled its part. Sends `order.canceled` " +
    "to your webhook endpoints. A shipped or delivered part cannot be cancelled (the buyer returns it): 409 " +
    "`order_transition_invalid`.",
  tags,
  access: write,
  params: OrderNumberPath,
  body: CancelOrder,
  idempotent: true,
  success: { status: 200, description: "Your part of the order, now cancelled.", schema: itemEnvelope(OrderPart) },
  errors: ["order_not_found", "order_transition_invalid"],
});

export const listReturnsEndpoint = defineEndpoint({
  name: "seller.returns.list",
  method: "GET",
  path: "/returns",
  operationId: "listReturns",
  summary: "List returns of your lines",
  description: "Returns buyers asked for of your store's lines, newest first, in every state.",
  tags: ["Returns"],
  access: read,
  query: ListReturnsQuery,
  success: { status: 200, description: "A page of returns.", schema: listEnvelope(StoreReturn) },
  errors: [],
});

export const getReturnEndpoint = defineEndpoint({
  name: "seller.returns.get",
  method: "GET",
  path: "/returns/{id}",
  operationId: "getReturn",
  summary: "Retrieve a return",
  description: "Another store's return is `return_not_found`, as is an id that does not exist.",
  tags: ["Returns"],
  access: read,
  params: IdPath,
  success: { status: 200, description: "The return.", schema: itemEnvelope(StoreReturn) },
  errors: ["return_not_found"],
});

const MOVE_TEXT: Record<ReturnMove, { summary: string; description: string }> = {
  approve: { summary: "Approve a return", description: "`requested` -> `approved`: the buyer may send the items back." },
  receive: { summary: "Mark a return received", description: "`approved` -> `received`: the items are back." },
  refund: {
    summary: "Refund a return",
    description:
      "`received` -> `refunded`: pays back `value_cents` (the returned units at the order's unit prices; shipping is not refunded) " +
      "through the payment provider that charged the order, once (a retry never refunds twice), and e-mails the buyer.",
  },
  reject: { summary: "Reject a return", description: "`requested` or `approved` -> `rejected`." },
};

function moveEndpoint(move: ReturnMove) {
  const { from, to } = RETURN_MOVES[move];
  return defineEndpoint({
    name: `seller.returns.${move}`,
    method: "POST",
    path: `/returns/{id}/${move}`,
    operationId: `${move}Return`,
    summary: MOVE_TEXT[move].summary,
    description: `${MOVE_TEXT[move].description} From any state but ${from.map((s) => `\`${s}\``).join(" or ")}: 409 \`return_transition_invalid\` naming the return's state. The dashboard's button does the same.`,
    tags: ["Returns"],
    access: write,
    params: IdPath,
    idempotent: true,
    success: { status: 200, description: `The return, now \`${to}\`.`, schema: itemEnvelope(StoreReturn) },
    errors: ["return_not_found", "return_transition_invalid"],
  });
}

export const returnMoveEndpoints = {
  approve: moveEndpoint("approve"),
  receive: moveEndpoint("receive"),
  refund: moveEndpoint("refund"),
  reject: moveEndpoint("reject"),
} satisfies Record<ReturnMove, unknown>;

export const ORDER_ENDPOINTS: Endpoint[] = [
  listOrdersEndpoint,
  getOrderEndpoint,
  shipOrderEndpoint,
  deliverOrderEndpoint,
  cancelOrderEndpoint,
  listReturnsEndpoint,
  getReturnEndpoint,
  ...Object.values(returnMoveEndpoints),
] as Endpoint[];
