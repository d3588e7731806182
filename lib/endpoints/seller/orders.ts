import { apiKeyAccess } from "@/lib/http/access";
import { defineEndpoint, type Endpoint } from "@/lib/http/describe";
import { itemEnvelope, listEnvelope } from "@/lib/schemas/seller/common";
import { ListOrdersQuery, OrderNumberPath, OrderPart, ShipOrder } from "@/lib/schemas/seller/orders";

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

export const ORDER_ENDPOINTS: Endpoint[] = [listOrdersEndpoint, getOrderEndpoint, shipOrderEndpoint, deliverOrderEndpoint] as Endpoint[];
