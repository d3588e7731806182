/**
 * The buyer's use cases, one function per operation, each returning the wire data: the buyer API
 * (app/api/v1/buyer) and the agent MCP server's tools (lib/mcp/tools/agent.ts) both call these,
 * so their answers cannot differ. Nothing here knows HTTP or MCP; refusals are AppErrors.
 */
export { getProfile } from "./profile";
export { addCartLine, getBuyerCart, removeCartLine, updateCartLine } from "./cart";
export { buyerCheckout, checkoutTokenFor, type AgentBuyer } from "./checkout";
export { checkoutSummary } from "./summary";
export { createReturn, getOrder, getReturn, listOrders, listReturns } from "./orders";
