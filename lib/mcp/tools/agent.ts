import type { ToolAnnotations } from "@modelcontextprotocol/server";
import { ApprovalNeeded, requestApproval } from "@/lib/agents/approvals";
import { oauthPrincipalOf, principalKey, type OAuthPrincipal } from "@/lib/auth/principal";
import {
  addCartLine,
  buyerCheckout,
  checkoutSummary,
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
import { absoluteUrl } from "@/lib/config";
import type { Prisma } from "@/lib/db";
import { addCartLineEndpoint, getCartEndpoint, removeCartLineEndpoint, updateCartLineEndpoint } from "@/lib/endpoints/buyer/cart";
import { checkoutEndpoint } from "@/lib/endpoints/buyer/checkout";
import { createReturnEndpoint, getOrderEndpoint, listOrdersEndpoint, listReturnsEndpoint } from "@/lib/endpoints/buyer/orders";
import { getProfileEndpoint } from "@/lib/endpoints/buyer/profile";
import { transaction, withDb } from "@/lib/http/database";
import type { Endpoint } from "@/lib/http/describe";
import { keyedInTransaction, onceByKey } from "@/lib/http/policies/idempotency";
import { type JsonSchema, jsonSchemaOf } from "@/lib/openapi/json-schema";
import { AddCartLine, BuyerListQuery, CartLinePath, CheckoutRequest, CheckoutSummary, UpdateCartLine, type BuyerUserData, type CartData, type CheckoutRequestData, type CheckoutSummaryData } from "@/lib/schemas/buyer";
import { CART_LINK_LIMITS } from "@/lib/schemas/cart";
import { RequestMeta } from "@/lib/schemas/catalog";
import type { OrderData, ReturnData } from "@/lib/schemas/orders";
import { CreateReturn } from "@/lib/schemas/orders";
import { z as zod } from "@/lib/schemas/zod";
import { bodyArguments, queryArguments } from "../arguments";
import { HolderApprovalRequired } from "../elicitation";
import { advertisedInput, IDEMPOTENCY_ARGUMENT, once, responseBody } from "../schemas";
import * as text from "../text";
import { NoArguments, noInput, PUBLIC_TOOLS } from "./public";
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

/** What every agent tool takes from its API operation: the scopes, the input and output schemas, the read/write hint. */
function fromEndpoint(endpoint: Endpoint, input: () => JsonSchema, annotations: ToolAnnotations, title: string) {
  return {
    scopes: endpoint.access.scopes as ToolDefinition["scopes"],
    inputSchema: advertisedInput(input),
    outputSchema: responseBody(endpoint.success.schema, endpoint.errors, input),
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
/** A keyed write's idempotency_key: as the buyer API's Idempotency-Key header, kept 24 hours for the grant. */
const IdempotencyKey = zod
  .string({ error: "must be a string" })
  .regex(/^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/, { error: "must be 1 to 255 printable ASCII characters" })
  .optional();
const keyed = (what: string) =>
  IdempotencyKey.openapi({
    description: `Send one (a fresh UUID) and reuse it if you retry: a retry with the same key and arguments answers ${what} again, never doing it twice; the same key with other arguments is refused (idempotency_key_reused), and a retry while the first call still runs too (idempotency_key_in_use: wait a second and retry). Kept 24 hours.`,
  });
const AddToCartArguments = AddCartLine.extend({ [IDEMPOTENCY_ARGUMENT]: keyed("the cart as the first call left it") }).strict();
const RequestReturnArguments = CreateReturn.extend({ order_id: OrderRef, [IDEMPOTENCY_ARGUMENT]: keyed("the return the first call requested") }).strict();
const CheckoutArguments = CheckoutRequest.extend({ [IDEMPOTENCY_ARGUMENT]: keyed("the order already placed") }).strict();

/** What a keyed tool call asks, for its idempotency record: the tool and its arguments but the key. */
function keyedRequest(caller: ToolCaller, tool: string, key: string, args: object) {
  return { owner: principalKey(holder(caller)), key, method: "tools/call", path: tool, body: args, param: IDEMPOTENCY_ARGUMENT };
}

/**
 * A write in one transaction, as the API's write does; with an idempotency key, kept with its
 * answer in that transaction (as the buyer API keeps Idempotency-Key), so a retry answers the
 * first call's result and never writes twice.
 */
async function keyedWrite<T>(caller: ToolCaller, tool: string, key: string | undefined, args: object, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return transaction(async (tx) => {
    if (key === undefined) return work(tx);
    const outcome = await keyedInTransaction(tx, keyedRequest(caller, tool, key, args), async () => {
      const data = await work(tx);
      return { answer: data, keep: { status: 200, response: data } };
    });
    return "replayed" in outcome ? (outcome.replayed.response as T) : outcome.answer;
  });
}

/**
 * The holder's checkout. When the call can send the agent's person to a page of ours, a refusal
 * the holder could lift (agent orders off, over a limit) asks for their approval of this order
 * instead (lib/agents/approvals.ts); their approval lets the retried call place it.
 */
async function checkoutOrAsk(caller: ToolCaller, body: CheckoutRequestData, checkoutToken: string): Promise<OrderData> {
  const agent = holder(caller);
  try {
    return await withDb((client) => buyerCheckout(client, agent, body, checkoutToken, caller.elicitation !== undefined));
  } catch (err) {
    if (!(err instanceof ApprovalNeeded)) throw err;
    const asked = await withDb((client) => requestApproval(client, agent.userId, agent.grantId, err));
    throw new HolderApprovalRequired(asked.id, absoluteUrl(`/account/agents/approvals/${asked.id}`), err.code, err.message);
  }
}

const cartText = (result: ToolResult) => text.cartText(result.data as CartData);

export const BUYER_TOOLS: ToolDefinition[] = [
  {
    name: "get_profile",
    ...fromEndpoint(getProfileEndpoint, noInput, READ, "Who you act for"),
    description: "The account holder this token acts for: id, email and name. Needs profile:read. The result is exactly GET /api/v1/buyer/me.",
    run: async (args, caller) => {
      bodyArguments(NoArguments, args);
      return { data: await withDb((client) => getProfile(client, holder(caller).userId)) };
    },
    text: (result) => text.profileText(result.data as BuyerUserData),
  },
  {
    name: "get_cart",
    view: "cart",
    ...fromEndpoint(getCartEndpoint, noInput, READ, "Get the cart"),
    description:
      "The holder's own cart (the one they see on the site), with current prices: each line's listing_id, title, store, quantity, unit and line totals, in_stock and purchasable (a line that is not purchasable is left out of subtotal_cents and refused at checkout). Stock counts are never shown. Needs cart:read. The result is exactly GET /api/v1/buyer/cart.",
    run: async (args, caller) => {
      bodyArguments(NoArguments, args);
      return { data: await withDb((client) => getBuyerCart(client, holder(caller).userId)) };
    },
    text: cartText,
  },
  {
    name: "add_to_cart",
    view: "cart",
    ...fromEndpoint(addCartLineEndpoint, once(() => jsonSchemaOf(AddToCartArguments)), WRITE, "Add to the cart"),
    description:
      "Adds quantity (1-99) units of an offer (listing_id from get_product) to the holder's cart: a new line, or more of the line already there (at most 99 a line). An offer that cannot supply the line's quantity now is refused and nothing changes (code listing_unavailable or insufficient_stock). Answers the cart. Send an idempotency_key and reuse it if you retry: the line is added once. Needs cart:write. The result is exactly POST /api/v1/buyer/cart/lines.",
    run: async (args, caller) => {
      const { idempotency_key, ...line } = bodyArguments(AddToCartArguments, args);
      return { data: await keyedWrite(caller, "add_to_cart", idempotency_key, line, (tx) => addCartLine(tx, holder(caller).userId, line)) };
    },
    text: cartText,
  },
  {
    name: "update_cart_line",
    view: "cart",
    ...fromEndpoint(updateCartLineEndpoint, once(() => jsonSchemaOf(UpdateLineArguments)), WRITE, "Change a cart line's quantity"),
    description:
      "Sets the quantity (1-99) of the cart's line for listing_id. A listing not in the cart is an error (code cart_line_not_found). Answers the cart. Needs cart:write. The result is exactly PATCH /api/v1/buyer/cart/lines/{listing_id}.",
    run: async (args, caller) => {
      const { listing_id, ...change } = bodyArguments(UpdateLineArguments, args);
      return { data: await transaction((tx) => updateCartLine(tx, holder(caller).userId, listing_id, change)) };
    },
    text: cartText,
  },
  {
    name: "remove_cart_line",
    view: "cart",
    ...fromEndpoint(removeCartLineEndpoint, once(() => jsonSchemaOf(RemoveLineArguments)), { ...WRITE, destructiveHint: true, idempotentHint: false }, "Remove a cart line"),
    description:
      "Removes the cart's line for listing_id. A listing not in the cart is an error (code cart_line_not_found). Answers the cart. Needs cart:write. The result is exactly DELETE /api/v1/buyer/cart/lines/{listing_id}.",
    run: async (args, caller) => {
      const { listing_id } = bodyArguments(RemoveLineArguments, args);
      return { data: await transaction((tx) => removeCartLine(tx, holder(caller).userId, listing_id)) };
    },
    text: cartText,
  },
  {
    name: "checkout",
    view: "checkout",
    ...fromEndpoint(checkoutEndpoint, once(() => jsonSchemaOf(CheckoutArguments)), { ...WRITE, openWorldHint: true }, "Place an order"),
    description: `Places an order for the holder, paid with their default payment method and shipped to their default address: the whole cart (omit lines), or lines [{ listing_id, quantity }] (1-20) at once, leaving the cart alone. Show your human the cart and total first and pass expected_total_cents: if the total changed, nothing is placed (code total_changed, error.total_cents the new total). Send an idempotency_key and reuse it on a retry. Refusals: the marketplace or the holder does not allow agents to order (agentic_checkout_disabled, agentic_purchasing_off), the total is above the holder's per-order or what is left of their monthly limit (per_order_limit_exceeded, monthly_limit_exceeded); a token without the checkout scope is refused with HTTP 403. When your client can open a URL for your human (URL elicitation), those three holder refusals ask the holder instead: they open our approval page, approve this exact order, and your retry of the same call places it once. Needs checkout. The result is exactly POST /api/v1/buyer/checkout (201).`,
    run: async (args, caller) => {
      const { idempotency_key, ...body } = bodyArguments(CheckoutArguments, args);
      const place = () => checkoutOrAsk(caller, body, checkoutTokenFor(principalKey(holder(caller)), idempotency_key));
      if (idempotency_key === undefined) return { data: await place() };
      // As POST /checkout: the key is claimed, the order placed in checkout's own transaction
      // (idempotent by the token derived from the key), then kept.
      const outcome = await onceByKey(keyedRequest(caller, "checkout", idempotency_key, body), async () => {
        const order = await place();
        return { answer: order, keep: { status: 201, response: order } };
      });
      return { data: "replayed" in outcome ? outcome.replayed.response : outcome.answer };
    },
    text: (result) => text.orderText(result.data as OrderData),
  },
  {
    name: "list_orders",
    ...fromEndpoint(listOrdersEndpoint, listInput, READ, "List orders"),
    description:
      "The holder's orders, newest first, limit (1-100, default 25) a page; pass next_cursor back as cursor for the next page (null on the last). Needs orders:read. The result is exactly GET /api/v1/buyer/orders.",
    run: async (args, caller) => {
      const page = await withDb((client) => listOrders(client, holder(caller).userId, queryArguments(ListArguments, args)));
      return { data: page.list, next_cursor: page.next_cursor };
    },
    text: (result) => text.ordersText(result.data as OrderData[], result.next_cursor ?? null),
  },
  {
    name: "get_order",
    ...fromEndpoint(getOrderEndpoint, once(() => jsonSchemaOf(GetOrderArguments)), READ, "Get an order"),
    description:
      "One of the holder's orders by id or number (M-10042), with its lines (their ids are what request_return takes). Needs orders:read. The result is exactly GET /api/v1/buyer/orders/{id}.",
    run: async (args, caller) => ({ data: await withDb((client) => getOrder(client, holder(caller).userId, bodyArguments(GetOrderArguments, args).order_id)) }),
    text: (result) => text.orderText(result.data as OrderData),
  },
  {
    name: "request_return",
    ...fromEndpoint(createReturnEndpoint, once(() => jsonSchemaOf(RequestReturnArguments)), WRITE, "Request a return"),
    description:
      "Asks to return lines of ONE store of a delivered order (order_id: id or number), within 30 days of delivery: lines [{ order_line_id, quantity, reason }] with reason one of damaged, not_as_described, wrong_item, no_longer_needed, other. Send an idempotency_key and reuse it if you retry: the return is requested once. Needs returns:write. The result is exactly POST /api/v1/buyer/orders/{id}/returns (201).",
    run: async (args, caller) => {
      const { idempotency_key, ...asked } = bodyArguments(RequestReturnArguments, args);
      const { order_id, ...body } = asked;
      return { data: await keyedWrite(caller, "request_return", idempotency_key, asked, (tx) => createReturn(tx, holder(caller).userId, order_id, body)) };
    },
    text: (result) => text.returnText(result.data as ReturnData),
  },
  {
    name: "list_returns",
    ...fromEndpoint(listReturnsEndpoint, listInput, READ, "List returns"),
    description:
      "The holder's returns, newest first, limit (1-100, default 25) a page; pass next_cursor back as cursor. Needs returns:read. The result is exactly GET /api/v1/buyer/returns.",
    run: async (args, caller) => {
      const page = await withDb((client) => listReturns(client, holder(caller).userId, queryArguments(ListArguments, args)));
      return { data: page.list, next_cursor: page.next_cursor };
    },
    text: (result) => text.returnsText(result.data as ReturnData[], result.next_cursor ?? null),
  },
];

const SetQuantityArguments = CartLinePath.extend({
  quantity: zod
    .number({ error: "must be an integer" })
    .int({ error: "must be an integer" })
    .min(0, { error: "must be at least 0" })
    .max(CART_LINK_LIMITS.quantityMax, { error: `must be at most ${CART_LINK_LIMITS.quantityMax}` })
    .openapi({ description: `The line's new quantity, 0 (removes the line) to ${CART_LINK_LIMITS.quantityMax}.` }),
}).strict();
const setQuantityInput = once(() => jsonSchemaOf(SetQuantityArguments));
const tool = (name: string) => BUYER_TOOLS.find((t) => t.name === name)!;

/**
 * The agent server's app-only tools (MCP Apps, `_meta.ui.visibility: ["app"]`): what the views'
 * buttons do. Hosts hide them from the model, which has the tools they stand for.
 */
export const VIEW_TOOLS: ToolDefinition[] = [
  {
    ...tool("add_to_cart"),
    name: "view_add_to_cart",
    title: "Add to the cart from the product view",
    annotations: { ...tool("add_to_cart").annotations, title: "Add to the cart from the product view" },
    description: "For the products view only (MCP Apps; hidden from the model): add_to_cart, called by an offer's Add to cart button.",
    view: undefined,
    visibility: ["app"],
  },
  {
    name: "view_set_quantity",
    title: "Set a quantity from the cart view",
    description:
      "For the cart view only (MCP Apps; hidden from the model): sets the quantity of the cart's line for listing_id, 0 removing it, as update_cart_line and remove_cart_line do. Answers the cart. Needs cart:write.",
    scopes: updateCartLineEndpoint.access.scopes as ToolDefinition["scopes"],
    inputSchema: advertisedInput(setQuantityInput),
    outputSchema: responseBody(getCartEndpoint.success.schema, [...new Set([...updateCartLineEndpoint.errors, ...removeCartLineEndpoint.errors])], setQuantityInput),
    annotations: { title: "Set a quantity from the cart view", ...WRITE, idempotentHint: true },
    visibility: ["app"],
    run: async (args, caller) => {
      const { listing_id, quantity } = bodyArguments(SetQuantityArguments, args);
      const userId = holder(caller).userId;
      return { data: await transaction((tx) => (quantity === 0 ? removeCartLine(tx, userId, listing_id) : updateCartLine(tx, userId, listing_id, { quantity }))) };
    },
    text: cartText,
  },
  {
    name: "view_checkout_summary",
    title: "Checkout summary for the cart and checkout views",
    description:
      "For the cart and checkout views only (MCP Apps; hidden from the model): what checking out the cart would charge now, per store with its shipping to the default address, and the holder's limits for agents with what is left this month. Writes nothing. Needs cart:read.",
    scopes: getCartEndpoint.access.scopes as ToolDefinition["scopes"],
    inputSchema: advertisedInput(noInput),
    outputSchema: responseBody(zod.object({ data: CheckoutSummary, meta: RequestMeta }).strict(), [], noInput),
    annotations: { title: "Checkout summary for the views", ...READ },
    visibility: ["app"],
    run: async (args, caller) => {
      bodyArguments(NoArguments, args);
      return { data: await withDb((client) => checkoutSummary(client, holder(caller).userId)) };
    },
    text: (result) => text.checkoutSummaryText(result.data as CheckoutSummaryData),
  },
];

/** Every tool of the agent MCP server: the public catalog tools, then the holder's, then the views' app-only ones. */
export const AGENT_TOOLS: ToolDefinition[] = [...PUBLIC_TOOLS, ...BUYER_TOOLS, ...VIEW_TOOLS];
