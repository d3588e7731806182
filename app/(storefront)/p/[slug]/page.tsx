import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { formatCents } from "@/lib/catalog/money";
import { getProduct } from "@/lib/catalog/product";
import { atRequestOrigin } from "../../_lib/request-origin";
import { offerTerms, type ParcelTerms } from "@/lib/checkout";
import { withCatalogReader } from "@/lib/http/database";
import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/http/database";
import type { ProductRecordData } from "@/lib/schemas/catalog";
import { NONCE_HEADER } from "@/lib/http/security-headers";
import { forgetStorefrontPage } from "@/lib/storefront/page-exists";
import { jsonLdScript, productJsonLd } from "@/lib/seo/json-ld";
import { attributeRows } from "@/lib/storefront/attributes";
import { Breadcrumb } from "../../_components/Breadcrumb";
import { ParcelTermsList } from "../../_components/ParcelTerms";
import { Rating } from "../../_components/Rating";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

// One database call per request, shared by the metadata and the page.
const loadProduct = cache(async (slug: string): Promise<ProductRecordData> => {
  try {
    return await atRequestOrigin(() => withCatalogReader((client) => getProduct(client, slug)));
  } catch (err) {
    if (err instanceof AppError && err.code === "product_not_found") {
      // Gone since the proxy saw it (lib/storefront/page-exists.ts): the next request is sent to
      // the not-found page.
      forgetStorefrontPage({ kind: "product", slug });
      notFound();
    }
    throw err;
  }
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const product = await loadProduct((await params).slug);
  return {
    title: product.title,
    description: product.description ?? undefined,
    alternates: { canonical: product.url },
  };
}

export default async function ProductPage({ params }: Props) {
  const product = await loadProduct((await params).slug);
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  const buyBox = product.offers.find((o) => o.listing_id === product.buy_box_listing_id) ?? null;
  // Each offer bought alone and shipped to the US: the same rule as a checkout quote.
  const terms = await withDb((client) => offerTerms(client, product.offers.map((o) => o.listing_id), "US"));
  const [cover, ...more] = product.images;
  const attributes = attributeRows(product.attributes);

  return (
    <main
      className="page"
      data-page="product"
      data-product-slug={product.slug}
      data-buy-box-listing-id={product.buy_box_listing_id ?? ""}
      data-min-price-cents={product.min_price_cents ?? ""}
    >
      <script type="application/ld+json" nonce={nonce} dangerouslySetInnerHTML={{ __html: jsonLdScript(productJsonLd(product)) }} />
      <Breadcrumb trail={product.category_breadcrumb} />
      <div className="product">
        <div className="gallery">
          {cover ? (
            // eslint-disable-next-line @next/next/no-img-element -- catalog images are plain files
            <img src={cover.url} alt={cover.alt ?? product.title} width={cover.width ?? 800} height={cover.height ?? 800} />
          ) : null}
          {more.length ? (
            <div className="thumbs">
              {more.map((image) => (
                // eslint-disable-next-line @next/next/no-img-element -- catalog images are plain files
                <img key={image.url} src={image.url} alt={image.alt ?? ""} width={120} height={120} loading="lazy" />
              ))}
            </div>
          ) : null}
        </div>
        <div>
          <h1>{product.title}</h1>
          {product.brand ? <p className="muted">by {product.brand.name}</p> : null}
          <Rating avg={product.rating_avg} count={product.rating_count} />
          {buyBox ? (
            <section className="buy-box" aria-labelledby="buy-box-title">
              <h2 id="buy-box-title" className="visually-hidden">
                Featured offer
              </h2>
              <p>
                <span className="badge buy-box-badge">Featured offer</span>{" "}
                <span className="price">{formatCents(buyBox.price_cents)}</span>{" "}
                {buyBox.on_sale ? <span className="strike">{formatCents(buyBox.list_price_cents)}</span> : null}
              </p>
              <p className="muted">
                {buyBox.condition_label} · sold by <a href={`/s/${buyBox.store_slug}`}>{buyBox.store_name}</a>
              </p>
              <p className="buy-box-reason" data-buy-box-reason="true">
                Why this offer: the lowest price with shipping to the US among{" "}
                {buyBox.condition === "new" ? "new offers in stock" : "offers in stock (no new one is)"}.
              </p>
              <OfferTerms terms={terms.get(buyBox.listing_id)} />
              <AddToCartForm listingId={buyBox.listing_id} quantityLabel="Quantity (featured offer)" />
            </section>
          ) : product.offers.length ? (
            <p className="notice">No offer is in stock right now; some sellers take backorders.</p>
          ) : (
            <p className="notice">This product has no offers right now.</p>
          )}
          {product.description ? <p>{product.description}</p> : null}
        </div>
      </div>

      <h2 id="offers">Offers</h2>
      {product.offers.length ? (
        <table aria-labelledby="offers" className="offers">
          <thead>
            <tr>
              <th scope="col">Condition</th>
              <th scope="col">Seller</th>
              <th scope="col">Price</th>
              <th scope="col">Availability</th>
              <th scope="col">
                <span className="visually-hidden">Add to cart</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {product.offers.map((offer) => {
              const isBuyBox = offer.listing_id === product.buy_box_listing_id;
              return (
                <tr
                  key={offer.listing_id}
                  data-listing-id={offer.listing_id}
                  data-price-cents={offer.price_cents}
                  data-condition={offer.condition}
                  data-store-slug={offer.store_slug}
                  data-in-stock={offer.in_stock ? "true" : "false"}
                  data-buy-box={isBuyBox ? "true" : "false"}
                >
                  <td>
                    {offer.condition_label}
                    {isBuyBox ? (
                      <>
                        {" "}
                        <span className="badge buy-box-badge">Featured</span>
                      </>
                    ) : null}
                  </td>
                  <td>
                    <a href={`/s/${offer.store_slug}`}>{offer.store_name}</a>
                    <OfferTerms terms={terms.get(offer.listing_id)} />
                  </td>
                  <td>
                    <span className="price">{formatCents(offer.price_cents)}</span>{" "}
                    {offer.on_sale ? (
                      <>
                        <span className="strike">{formatCents(offer.list_price_cents)}</span>{" "}
                        <span className="badge sale">Sale</span>
                      </>
                    ) : null}
                  </td>
                  <td className={offer.in_stock ? "in-stock" : "out-of-stock"}>
                    {offer.in_stock ? "In stock" : "Backorder"}
                  </td>
                  <td>
                    <AddToCartForm
                      listingId={offer.listing_id}
                      quantityLabel={`Quantity (${offer.condition_label}, ${offer.store_name})`}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : (
        <p className="muted">No seller offers this product at the moment.</p>
      )}

      {attributes.length ? (
        <>
          <h2 id="details">Details</h2>
          <table aria-labelledby="details">
            <tbody>
              {attributes.map(({ key, label, value }) => (
                <tr key={key} data-attribute={key}>
                  <th scope="row">{label}</th>
                  <td>{value}</td>
                </tr>
              ))}
              {product.gtin ? (
                <tr>
                  <th scope="row">GTIN</th>
                  <td>{product.gtin}</td>
                </tr>
              ) : null}
              {product.mpn ? (
                <tr>
                  <th scope="row">MPN</th>
                  <td>{product.mpn}</td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </>
      ) : null}
    </main>
  );
}

/** An offer's shipping, delivery estimate and return window (absent only if it vanished since the product was read). */
function OfferTerms({ terms }: { terms: ParcelTerms | undefined }) {
  return terms ? <ParcelTermsList terms={terms} /> : null;
}

/** POST /cart/add for one offer: each offer row and the featured offer's box hold the same form. */
function AddToCartForm({ listingId, quantityLabel }: { listingId: string; quantityLabel: string }) {
  return (
    <form method="post" action="/cart/add" className="add-to-cart">
      <input type="hidden" name="listing_id" value={listingId} />
      <label>
        <span className="visually-hidden">{quantityLabel}</span>
        <input type="number" name="quantity" min={1} max={99} defaultValue={1} required className="quantity" />
      </label>{" "}
      <button type="submit">Add to cart</button>
    </form>
  );
}
