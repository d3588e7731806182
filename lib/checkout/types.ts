import type { Prisma } from "@/lib/db";
import type { CartOwner } from "@/lib/cart/cart";
import type { OrderData } from "@/lib/schemas/orders";

/** A client inside a checkout's transaction. */
export type Tx = Prisma.TransactionClient;
/** Whatever can run a raw query: the client, or a transaction. */
export type Executor = Pick<Tx, "$queryRaw">;

/** A line given at once ("buy now"): a listing and how many. */
export interface ExplicitLine {
  listing_id: string;
  quantity: number;
}

/** What to buy: the lines of a cart, or lines given at once (the cart is left alone). */
export type CheckoutSource = { cart: CartOwner } | { lines: ReadonlyArray<ExplicitLine> };

/** Who buys: an account holder, or a guest known by an e-mail address. */
export type Buyer = { userId: string } | { email: string };

/** An agent checking out for its holder through the buyer API or the agent MCP. */
export interface AgentCaller {
  grantId: string;
  scopes: readonly string[];
  /**
   * The agent can send its person to a page of ours (the agent MCP server's URL elicitation): a
   * refusal the holder could lift is an `ApprovalNeeded` (lib/agents/approvals.ts).
   */
  askHolder?: boolean;
}

/** A store's part of a placed order, as the confirmation page and e-mail show it. */
export interface PlacedStore {
  store_slug: string;
  store_name: string;
  subtotal_cents: number;
  shipping_cents: number;
}

export interface PlacedOrder {
  order: OrderData;
  /** True when the checkout had already placed this order (nothing was placed now). */
  replayed: boolean;
  /** Where the buyer sees the confirmation (for a guest, a signed link only they hold). */
  confirmation_path: string;
  /** Placed by a signed-in account holder (else a guest). */
  account_holder: boolean;
  email: string;
  payment_last4: string;
  /** Each store's part: its name, subtotal and shipping, for the confirmation page and e-mail. */
  stores: PlacedStore[];
}
