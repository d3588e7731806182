import { formatCents } from "@/lib/catalog/money";
import type { ProductCardData } from "@/lib/schemas/catalog";
import { Rating } from "./Rating";

/** How many cards a wide screen shows in its first row: their pictures load at once, the rest lazily. */
export const FIRST_ROW_CARDS = 4;

/** A result card; `firstRow` cards load their picture eagerly and first, so a phone's first screen is not blank boxes. */
export function ProductCard({ card, firstRow = false }: { card: ProductCardData; firstRow?: boolean }) {
  const href = `/p/${card.slug}`;
  return (
    <article
      className="card"
      data-product-slug={card.slug}
      data-min-price-cents={card.min_price_cents ?? ""}
      data-offer-count={card.offer_count}
    >
      {/* One link holds the picture and the title, so both lead to the product and it reads as the title. */}
      <a className="title" href={href}>
        {card.image_url ? (
          // eslint-disable-next-line @next/next/no-img-element -- catalog images are plain files; no optimizer needed
          <img src={card.image_url} alt="" width={400} height={400} {...(firstRow ? { loading: "eager", fetchPriority: "high" } : { loading: "lazy" })} />
        ) : null}
        <span className="card-title">{card.title}</span>
      </a>
      {card.brand ? <span className="brand">{card.brand.name}</span> : null}
      <Rating avg={card.rating_avg} count={card.rating_count} />
      {card.min_price_cents !== null ? (
        <span className="price">from {formatCents(card.min_price_cents)}</span>
      ) : null}
      <span className="muted">
        {card.offer_count} {card.offer_count === 1 ? "offer" : "offers"}
      </span>
    </article>
  );
}
