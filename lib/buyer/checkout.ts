import { createHash, randomBytes } from "node:crypto";
import { placeOrder } from "@/lib/checkout";
import type { PrismaClient } from "@/lib/db";
import type { CheckoutRequestData } from "@/lib/schemas/buyer";
import type { OrderData } from "@/lib/schemas/orders";

/** The agent checking out: the holder it acts for, its grant and its token's scopes. */
export interface AgentBuyer {
  userId: string;
  grantId: string;
  scopes: readonly string[];
}

/**
 * Places an order for the holder (`placed_via: "agent"`): the holder's cart (its bought lines
 * leave it), or the explicit `lines` ("buy now", the cart untouched); shipped to the holder's
 * default address and paid with their default payment method. Agentic checkout's rules (the
 * marketplace's and the holder's switches, the limits, the `checkout` scope) are placeOrder's,
 * inside its transaction. `checkoutToken` makes a retry answer the order already placed
 * (`checkoutTokenFor`). With `askHolder` (an agent that can send its person to a page of ours), a
 * refusal the holder could lift is an `ApprovalNeeded` (lib/agents/approvals.ts).
 */
export async function buyerCheckout(client: PrismaClient, agent: AgentBuyer, body: CheckoutRequestData, checkoutToken: string, askHolder = false): Promise<OrderData> {
  const placed = await placeOrder(client, {
    buyer: { userId: agent.userId },
    source: body.lines ? { lines: body.lines } : { cart: { userId: agent.userId } },
    placedVia: "agent",
    agent: { grantId: agent.grantId, scopes: agent.scopes, ...(askHolder ? { askHolder } : {}) },
    checkoutToken,
    expectedTotalCents: body.expected_total_cents,
  });
  return placed.order;
}

/**
 * The checkout token of a request: derived from its idempotency owner and key when the client sent
 * one (a retry with the same key answers the same order, whichever door it came through), else
 * random (each request a checkout of its own).
 */
export function checkoutTokenFor(owner: string, idempotencyKey: string | undefined): string {
  if (idempotencyKey === undefined) return `agent:${randomBytes(24).toString("base64url")}`;
  return `agent:${createHash("sha256").update(`${owner}\n${idempotencyKey}`).digest("base64url")}`;
}
