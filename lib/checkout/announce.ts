import { formatCents } from "@/lib/catalog/money";
import { sendEmail } from "@/lib/email/send";
import { logEvent } from "@/lib/log";
import { orderPageUrl } from "@/lib/orders/confirmation";
import { CONDITION_LABELS } from "@/lib/schemas/catalog";
import type { PlacedOrder } from "./types";

// Step "announce", after commit: the confirmation e-mail to the buyer.

/** The order's page for its buyer. */
function pageOf(placed: PlacedOrder): string {
  return orderPageUrl({ id: placed.order.id, number: placed.order.number, accountHolder: placed.account_holder });
}

/** The confirmation e-mail's text: number, lines by seller, totals, address, and the order's page. */
export function confirmationText(placed: PlacedOrder): string {
  const { order } = placed;
  const a = order.shipping_address;
  const out: string[] = [`Thank you for your order ${order.number}.`, ""];
  for (const store of placed.stores) {
    out.push(`Sold and shipped by ${store.store_name}:`);
    for (const line of order.lines.filter((l) => l.store_slug === store.store_slug)) {
      out.push(`  ${line.quantity} × ${line.title} (${CONDITION_LABELS[line.condition]}) at ${formatCents(line.unit_price_cents)}: ${formatCents(line.line_total_cents)}`);
    }
    out.push(`  Shipping: ${store.shipping_cents === 0 ? "free" : formatCents(store.shipping_cents)}`, "");
  }
  out.push(
    `Subtotal: ${formatCents(order.subtotal_cents)}`,
    `Shipping: ${formatCents(order.shipping_cents)}`,
    `Total charged to the card ending in ${placed.payment_last4}: ${formatCents(order.total_cents)}`,
    "",
    "Shipping to:",
    `  ${a.full_name}`,
    `  ${a.line1}`,
    ...(a.line2 ? [`  ${a.line2}`] : []),
    `  ${a.city}, ${a.state} ${a.postal_code}`,
    `  ${a.country}`,
    "",
    `Your order: ${pageOf(placed)}`,
  );
  return out.join("\n");
}

/**
 * Sends the confirmation to the buyer (after the order committed). A failure to send is logged
 * and never undoes the order.
 */
export async function sendOrderConfirmation(placed: PlacedOrder): Promise<void> {
  try {
    await sendEmail({ to: placed.email, subject: `Your order ${placed.order.number}`, text: confirmationText(placed), link: pageOf(placed) });
  } catch (err) {
    logEvent("error", "order confirmation e-mail failed", { order: placed.order.number, error: String(err) });
  }
}
