import { formatCents } from "@/lib/catalog/money";
import type { ParcelTerms } from "@/lib/checkout";
import { businessDays as days } from "@/lib/orders/shipping";

/** "the US" for a US address, else the country code. */
function destination(country: string): string {
  return country === "US" ? "the US" : country;
}

/**
 * A parcel's terms (lib/orders/shipping.ts `parcelTerms`) as the product page, the cart and
 * checkout show them: shipping and its free-over threshold, the delivery estimate, the return window.
 */
export function ParcelTermsList({ terms, country = "US" }: { terms: ParcelTerms; country?: string }) {
  const to = destination(country);
  const over = terms.free_over_cents !== null ? ` (free over ${formatCents(terms.free_over_cents)})` : "";
  const shipping =
    terms.shipping_cents === 0 ? `Free shipping to ${to}${terms.rate_cents ? over : ""}` : `Shipping to ${to}: ${formatCents(terms.shipping_cents)}${over}`;
  return (
    <ul
      className="parcel-terms"
      data-parcel-terms="true"
      data-shipping-cents={terms.shipping_cents}
      data-free-over-cents={terms.free_over_cents ?? ""}
      data-delivery-min-days={terms.delivery?.min_days ?? ""}
      data-delivery-max-days={terms.delivery?.max_days ?? ""}
      data-return-window-days={terms.return_window_days}
    >
      <li data-term="shipping">{shipping}</li>
      <li data-term="delivery">
        {terms.delivery
          ? `Arrives in ${days(terms.delivery.min_days, terms.delivery.max_days)} (${terms.delivery.handling_days === 0 ? "ships the same business day" : `ships within ${days(terms.delivery.handling_days, terms.delivery.handling_days)}`})`
          : "No delivery estimate"}
      </li>
      <li data-term="returns">Returns within {terms.return_window_days} days of delivery</li>
    </ul>
  );
}
