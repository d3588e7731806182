import { formatCents } from "@/lib/catalog/money";
import { sendEmail } from "@/lib/email/send";
import { orderPageUrl } from "@/lib/orders/confirmation";
import { CONDITION_LABELS } from "@/lib/schemas/catalog";
import type { PlacedOrder, Tx } from "./types";

// Step "announce", in the order's transaction: the confirmation e-mail to the buyer, sent once
// the order commits (and never for one that rolls back).

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

/** Sends the confirmation to the buyer, in the order's transaction: it goes out after commit. */
export async function sendOrderConfirmation(placed: PlacedOrder, tx: Tx): Promise<void> {
  await sendEmail(tx, { to: placed.email, subject: `Your order ${placed.order.number}`, text: confirmationText(placed), link: pageOf(placed) });
}
