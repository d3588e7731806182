import { formatCents } from "@/lib/catalog/money";
import type { ProductCardData } from "@/lib/schemas/catalog";
import { Rating } from "./Rating";

export function ProductCard({ card }: { card: ProductCardData }) {
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
          <img src={card.image_url} alt="" width={400} height={400} loading="lazy" />
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
