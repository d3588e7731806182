import { oauthAccess } from "@/lib/http/access";
import { defineEndpoint } from "@/lib/http/describe";
import { BuyerListQuery, OrderPath } from "@/lib/schemas/buyer";
import { CreateReturn, Order, Return } from "@/lib/schemas/orders";
import { IdPath, itemEnvelope, listEnvelope } from "@/lib/schemas/seller/common";

const ordersRead = oauthAccess("buyer_api", ["orders:read"]);
// returns:write implies returns:read.
const returnsRead = oauthAccess("buyer_api", ["returns:read"]);
const returnsWrite = oauthAccess("buyer_api", ["returns:write"]);

export const listOrdersEndpoint = defineEndpoint({
  name: "buyer.orders.list",
  method: "GET",
  path: "/orders",
  operationId: "listOrders",
  summary: "List the holder's orders",
  description: "Every order of the holder (placed on the storefront or by an agent), newest first.",
  tags: ["Orders"],
  access: ordersRead,
  query: BuyerListQuery,
  success: { status: 200, description: "A page of orders.", schema: listEnvelope(Order) },
  errors: [],
});

export const getOrderEndpoint = defineEndpoint({
  name: "buyer.orders.get",
  method: "GET",
  path: "/orders/{id}",
  operationId: "getOrder",
  summary: "Retrieve an order",
  description: "One of the holder's orders, by id or number. Another holder's order, a guest's and an unknown id are all 404.",
  tags: ["Orders"],
  access: ordersRead,
  params: OrderPath,
  success: { status: 200, description: "The order.", schema: itemEnvelope(Order) },
  errors: ["order_not_found"],
});

export const createReturnEndpoint = defineEndpoint({
  name: "buyer.returns.create",
  method: "POST",
  path: "/orders/{id}/returns",
  operationId: "createReturn",
  summary: "Request a return",
  description:
    "Asks to return lines of ONE store of a delivered order, within 30 days of delivery (else 409 `order_not_returnable`). " +
    "Each line at most once, each quantity at most what was bought minus what earlier returns that were not rejected hold " +
    "(400 naming `lines[i].quantity`); lines of several stores are a 400 naming `lines` (request one return per store).",
  tags: ["Returns"],
  access: returnsWrite,
  params: OrderPath,
  body: CreateReturn,
  idempotent: true,
  success: { status: 201, description: "The return, `requested`.", schema: itemEnvelope(Return) },
  errors: ["order_not_found", "order_not_returnable"],
});

export const listReturnsEndpoint = defineEndpoint({
  name: "buyer.returns.list",
  method: "GET",
  path: "/returns",
  operationId: "listReturns",
  summary: "List the holder's returns",
  description: "Every return of the holder's orders, newest first.",
  tags: ["Returns"],
  access: returnsRead,
  query: BuyerListQuery,
  success: { status: 200, description: "A page of returns.", schema: listEnvelope(Return) },
  errors: [],
});

export const getReturnEndpoint = defineEndpoint({
  name: "buyer.returns.get",
  method: "GET",
  path: "/returns/{id}",
  operationId: "getReturn",
  summary: "Retrieve a return",
  description: "One of the holder's returns. Another holder's return and an unknown id are both 404.",
  tags: ["Returns"],
  access: returnsRead,
  params: IdPath,
  success: { status: 200, description: "The return.", schema: itemEnvelope(Return) },
  errors: ["return_not_found"],
});
