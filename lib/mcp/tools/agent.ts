import type { ToolAnnotations } from "@modelcontextprotocol/server";
import { oauthPrincipalOf, principalKey, type OAuthPrincipal } from "@/lib/auth/principal";
import {
  addCartLine,
  buyerCheckout,
  checkoutTokenFor,
  createReturn,
  getBuyerCart,
  getOrder,
  getProfile,
  listOrders,
  listReturns,
  removeCartLine,
  updateCartLine,
} from "@/lib/buyer";
import { db, type Prisma } from "@/lib/db";
import { addCartLineEndpoint, getCartEndpoint, removeCartLineEndpoint, updateCartLineEndpoint } from "@/lib/endpoints/buyer/cart";
import { checkoutEndpoint } from "@/lib/endpoints/buyer/checkout";
import { createReturnEndpoint, getOrderEndpoint, listOrdersEndpoint, listReturnsEndpoint } from "@/lib/endpoints/buyer/orders";
import { getProfileEndpoint } from "@/lib/endpoints/buyer/profile";
import type { Endpoint } from "@/lib/http/describe";
import { jsonSchemaOf } from "@/lib/openapi/json-schema";
import { AddCartLine, BuyerListQuery, CartLinePath, CheckoutRequest, UpdateCartLine, type BuyerUserData, type CartData } from "@/lib/schemas/buyer";
import type { OrderData, ReturnData } from "@/lib/schemas/orders";
import { CreateReturn } from "@/lib/schemas/orders";
import { z as zod } from "@/lib/schemas/zod";
import { bodyArguments, queryArguments } from "../arguments";
import { advertisedInput, once, responseBody } from "../schemas";
import * as text from "../text";
import { NoArguments, PUBLIC_TOOLS } from "./public";
import type { ToolCaller, ToolDefinition, ToolResult } from "./types";

/*
 * The agent MCP server's own tools: one per buyer API operation (but GET /returns/{id}), each
 * validating its arguments with that operation's schemas, calling the same lib/buyer function,
 * and answering that operation's body, so a tool's structured content equals the API's answer.
 * A tool needs the scopes its operation's access policy needs; the server checks them before the
 * call reaches the tool (lib/mcp/agent.ts).
 */

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

function holder(caller: ToolCaller): OAuthPrincipal {
  if (!caller.principal) throw new Error("agent tools need the caller's token");
  return oauthPrincipalOf(caller.principal);
}

/** A change in one transaction, as the API's write does. */
function inTransaction<T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return db().$transaction(work, { maxWait: 10_000, timeout: 15_000 });
}

/** What every agent tool takes from its API operation: the scopes, the output schema, the read/write hint. */
function fromEndpoint(endpoint: Endpoint, annotations: ToolAnnotations, title: string) {
  return {
    scopes: endpoint.access.scopes as ToolDefinition["scopes"],
    outputSchema: responseBody(endpoint.success.schema),
    annotations: { title, ...annotations },
    title,
  };
}

const ListArguments = BuyerListQuery;
const listInput = once(() => ({ ...jsonSchemaOf(ListArguments), additionalProperties: false }));
const OrderRef = zod.string({ error: "must be a string" }).openapi({ description: "The order's id (UUID) or number (`M-10042`)." });
const GetOrderArguments = zod.object({ order_id: OrderRef }).strict();
const UpdateLineArguments = CartLinePath.extend(UpdateCartLine.shape).strict();
const RemoveLineArguments = CartLinePath.strict();
const RequestReturnArguments = CreateReturn.extend({ order_id: OrderRef }).strict();
const CheckoutArguments = CheckoutRequest.extend({
  idempotency_key: zod
    .string({ error: "must be a string" })
    .regex(/^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/, { error: "must be 1 to 255 printable ASCII characters" })
    .optional()
    .openapi({
      description:
        "Send one (a fresh UUID) and reuse it if you retry: a retry with the same key answers the order already placed, never a second one (as the buyer API's Idempotency-Key).",
    }),
}).strict();

const cartText = (result: ToolResult) => text.cartText(result.data as CartData);

export const BUYER_TOOLS: ToolDefinition[] = [
  {
    name: "get_profile",
    ...fromEndpoint(getProfileEndpoint, READ, "Who you act for"),
    description: "The account holder this token acts for: id, email and name. Needs profile:read. The result is exactly GET /api/v1/buyer/me.",
    inputSchema: advertisedInput(once(() => jsonSchemaOf(NoArguments))),
    run: async (args, caller) => {
      bodyArguments(NoArguments, args);
      return { data: await getProfile(db(), holder(caller).userId) };
    },
    text: (result) => text.profileText(result.data as BuyerUserData),
  },
  {
    name: "get_cart",
    ...fromEndpoint(getCartEndpoint, READ, "Get the cart"),
    description:
      "The holder's own cart (the one they see on the site), with current prices: each line's listing_id, title, store, quantity, unit and line totals, in_stock and purchasable (a line that is not purchasable is left out of subtotal_cents and refused at checkout). Stock counts are never shown. Needs cart:read. The result is exactly GET /api/v1/buyer/cart.",
    inputSchema: advertisedInput(once(() => jsonSchemaOf(NoArguments))),
    run: async (args, caller) => {
      bodyArguments(NoArguments, args);
      return { data: await getBuyerCart(db(), holder(caller).userId) };
    },
    text: cartText,
  },
  {
    name: "add_to_cart",
    ...fromEndpoint(addCartLineEndpoint, WRITE, "Add to the cart"),
    description:
      "Adds quantity (1-99) units of an offer (listing_id from get_product) to the holder's cart: a new line, or more of the line already there (at most 99 a line). An offer that cannot supply the line's quantity now is refused and nothing changes (code listing_unavailable or insufficient_stock). Answers the cart. Needs cart:write. The result is exactly POST /api/v1/buyer/cart/lines.",
    inputSchema: advertisedInput(once(() => jsonSchemaOf(AddCartLine))),
    run: async (args, caller) => {
      const line = bodyArguments(AddCartLine, args);
      return { data: await inTransaction((tx) => addCartLine(tx, holder(caller).userId, line)) };
    },
    text: cartText,
  },
  {
    name: "update_cart_line",
    ...fromEndpoint(updateCartLineEndpoint, WRITE, "Change a cart line's quantity"),
    description:
      "Sets the quantity (1-99) of the cart's line for listing_id. A listing not in the cart is an error (code cart_line_not_found). Answers the cart. Needs cart:write. The result is exactly PATCH /api/v1/buyer/cart/lines/{listing_id}.",
    inputSchema: advertisedInput(once(() => jsonSchemaOf(UpdateLineArguments))),
    run: async (args, caller) => {
      const { listing_id, ...change } = bodyArguments(UpdateLineArguments, args);
      return { data: await inTransaction((tx) => updateCartLine(tx, holder(caller).userId, listing_id, change)) };
    },
    text: cartText,
  },
  {
    name: "remove_cart_line",
    ...fromEndpoint(removeCartLineEndpoint, { ...WRITE, destructiveHint: true, idempotentHint: false }, "Remove a cart line"),
    description:
      "Removes the cart's line for listing_id. A listing not in the cart is an error (code cart_line_not_found). Answers the cart. Needs cart:write. The result is exactly DELETE /api/v1/buyer/cart/lines/{listing_id}.",
    inputSchema: advertisedInput(once(() => jsonSchemaOf(RemoveLineArguments))),
    run: async (args, caller) => {
      const { listing_id } = bodyArguments(RemoveLineArguments, args);
      return { data: await inTransaction((tx) => removeCartLine(tx, holder(caller).userId, listing_id)) };
    },
    text: cartText,
  },
  {
    name: "checkout",
    ...fromEndpoint(checkoutEndpoint, { ...WRITE, openWorldHint: true }, "Place an order"),
    description: `Places an order for the holder, paid with their default payment method and shipped to their default address: the whole cart (omit lines), or lines [{ listing_id, quantity }] (1-20) at once, leaving the cart alone. Show your human the cart and total first and pass expected_total_cents: if the total changed, nothing is placed (code total_changed, error.total_cents the new total). Send an idempotency_key and reuse it on a retry. Refusals: the marketplace or the holder does not allow agents to order (agentic_checkout_disabled, agentic_purchasing_off), the total is above the holder's per-order or what is left of their monthly limit (per_order_limit_exceeded, monthly_limit_exceeded); a token without the checkout scope is refused with HTTP 403. Needs checkout. The result is exactly POST /api/v1/buyer/checkout (201).`,
    inputSchema: advertisedInput(once(() => jsonSchemaOf(CheckoutArguments))),
    run: async (args, caller) => {
      const { idempotency_key, ...body } = bodyArguments(CheckoutArguments, args);
      const agent = holder(caller);
      return { data: await buyerCheckout(agent, body, checkoutTokenFor(principalKey(agent), idempotency_key)) };
    },
    text: (result) => text.orderText(result.data as OrderData),
  },
  {
    name: "list_orders",
    ...fromEndpoint(listOrdersEndpoint, READ, "List orders"),
    description:
      "The holder's orders, newest first, limit (1-100, default 25) a page; pass next_cursor back as cursor for the next page (null on the last). Needs orders:read. The result is exactly GET /api/v1/buyer/orders.",
    inputSchema: advertisedInput(listInput),
    run: async (args, caller) => {
      const page = await listOrders(db(), holder(caller).userId, queryArguments(ListArguments, args));
      return { data: page.list, next_cursor: page.next_cursor };
    },
    text: (result) => text.ordersText(result.data as OrderData[], result.next_cursor ?? null),
  },
  {
    name: "get_order",
    ...fromEndpoint(getOrderEndpoint, READ, "Get an order"),
    description:
      "One of the holder's orders by id or number (M-10042), with its lines (their ids are what request_return takes). Needs orders:read. The result is exactly GET /api/v1/buyer/orders/{id}.",
    inputSchema: advertisedInput(once(() => jsonSchemaOf(GetOrderArguments))),
    run: async (args, caller) => ({ data: await getOrder(db(), holder(caller).userId, bodyArguments(GetOrderArguments, args).order_id) }),
    text: (result) => text.orderText(result.data as OrderData),
  },
  {
    name: "request_return",
    ...fromEndpoint(createReturnEndpoint, WRITE, "Request a return"),
    description:
      "Asks to return lines of ONE store of a delivered order (order_id: id or number), within 30 days of delivery: lines [{ order_line_id, quantity, reason }] with reason one of damaged, not_as_described, wrong_item, no_longer_needed, other. Needs returns:write. The result is exactly POST /api/v1/buyer/orders/{id}/returns (201).",
    inputSchema: advertisedInput(once(() => jsonSchemaOf(RequestReturnArguments))),
    run: async (args, caller) => {
      const { order_id, ...body } = bodyArguments(RequestReturnArguments, args);
      return { data: await inTransaction((tx) => createReturn(tx, holder(caller).userId, order_id, body)) };
    },
    text: (result) => text.returnText(result.data as ReturnData),
  },
  {
    name: "list_returns",
    ...fromEndpoint(listReturnsEndpoint, READ, "List returns"),
    description:
      "The holder's returns, newest first, limit (1-100, default 25) a page; pass next_cursor back as cursor. Needs returns:read. The result is exactly GET /api/v1/buyer/returns.",
    inputSchema: advertisedInput(listInput),
    run: async (args, caller) => {
      const page = await listReturns(db(), holder(caller).userId, queryArguments(ListArguments, args));
      return { data: page.list, next_cursor: page.next_cursor };
    },
    text: (result) => text.returnsText(result.data as ReturnData[], result.next_cursor ?? null),
  },
];

/** Every tool of the agent MCP server: the public catalog tools, then the holder's. */
export const AGENT_TOOLS: ToolDefinition[] = [...PUBLIC_TOOLS, ...BUYER_TOOLS];
