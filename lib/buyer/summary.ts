import { defaultAddress } from "@/lib/accounts/addresses";
import { agentSpendThisMonth, getAgentSettings } from "@/lib/agents/settings";
import { quoteCheckout } from "@/lib/checkout";
import type { DbClient } from "@/lib/db";
import type { CheckoutSummaryData } from "@/lib/schemas/buyer";

/**
 * What checking out the holder's cart would charge now (each store's subtotal and shipping to
 * their default address, as the order would), and what is left of their limits for agents this
 * month. Writes nothing. The agent MCP server's cart and checkout views show it.
 */
export async function checkoutSummary(client: DbClient, userId: string): Promise<CheckoutSummaryData> {
  const [address, settings, spent] = await Promise.all([defaultAddress(client, userId), getAgentSettings(client, userId), agentSpendThisMonth(client, userId)]);
  const quote = await quoteCheckout(client, { cart: { userId } }, { country: address?.country ?? "US" });
  const enabled = settings.orders_enabled && settings.per_order_limit_cents !== null && settings.monthly_limit_cents !== null;
  return {
    object: "checkout_summary",
    stores: quote.stores.map((s) => ({
      store_slug: s.store_slug,
      store_name: s.store_name,
      line_count: s.lines.length,
      subtotal_cents: s.subtotal_cents,
      shipping_cents: s.shipping_cents,
    })),
    subtotal_cents: quote.subtotal_cents,
    shipping_cents: quote.shipping_cents,
    total_cents: quote.total_cents,
    currency: quote.currency,
    country: quote.country,
    agent_orders: {
      enabled,
      per_order_limit_cents: settings.per_order_limit_cents,
      monthly_limit_cents: settings.monthly_limit_cents,
      spent_this_month_cents: spent,
      left_this_month_cents: settings.monthly_limit_cents === null ? null : Math.max(settings.monthly_limit_cents - spent, 0),
    },
  };
}
