import type { Metadata } from "next";
import Link from "next/link";
import { withDb } from "@/lib/http/database";
import { brandOptions, findProductsToAttach, leafCategoryOptions, productToAttach, shippingTemplateOptions } from "@/lib/seller/dashboard/catalog";
import { decodeFlash } from "@/lib/http/flash";
import { cleanSearchTerm } from "@/lib/seller/dashboard/text";
import { FormState } from "@/app/_components/forms";
import { ListingFields } from "../../../_components/ListingFields";
import { one, storeOfPage, type SearchParams } from "../../../_lib/access";

export const metadata: Metadata = { title: "New listing" };

type Props = { params: Promise<{ store: string }>; searchParams: SearchParams };

export default async function NewListingPage({ params, searchParams }: Props) {
  const [{ store: slug }, sp] = await Promise.all([params, searchParams]);
  const { store } = await storeOfPage(slug, `/seller/${slug}/listings/new`);
  const base = `/seller/${store.slug}/listings/new`;
  const q = cleanSearchTerm(one(sp.q));
  const state = new FormState("listing", decodeFlash(one(sp.flash)));
  const { matches, product, templates, categories, brands } = await withDb(async (client) => {
    const [matches, product, templates] = await Promise.all([
      findProductsToAttach(client, q),
      productToAttach(client, one(sp.product)),
      shippingTemplateOptions(client, store.id),
    ]);
    const [categories, brands] = product ? [[], []] : await Promise.all([leafCategoryOptions(client), brandOptions(client)]);
    return { matches, product, templates, categories, brands };
  });
  return (
    <main className="page seller narrow" data-page="seller-listing-new">
      <p className="back">
        <Link href={`/seller/${store.slug}/listings`}>← Listings</Link>
      </p>
      <h1>New listing</h1>
      <section aria-labelledby="product-heading" className="panel">
        <h2 id="product-heading">1. The product</h2>
        {product ? (
          <div className="chosen-product" data-product={product.id}>
            <p>
              Selling: <strong>{product.title}</strong>
              <span className="muted">
                {" "}
                · {product.brand ? `${product.brand} · ` : ""}
                {product.category}
                {product.gtin ? ` · GTIN ${product.gtin}` : ""}
              </span>
            </p>
            <p>
              <Link href={base}>Choose another product</Link>
            </p>
          </div>
        ) : (
          <>
            <p>Attach your offer to a product already in the catalog, or describe a new product below.</p>
            <form method="get" action={base} role="search" aria-label="Find a product" className="filters">
              <label className="grow">
                Find a product by title or GTIN
                <input type="search" name="q" defaultValue={q} maxLength={200} />
              </label>
              <button type="submit">Search</button>
            </form>
            {q ? (
              matches.length > 0 ? (
                <ul className="product-matches" aria-label="Matching products">
                  {matches.map((m) => (
                    <li key={m.id} data-product={m.id}>
                      <span>
                        <strong>{m.title}</strong>
                        <span className="muted">
                          {" "}
                          · {m.brand ? `${m.brand} · ` : ""}
                          {m.category}
                          {m.gtin ? ` · GTIN ${m.gtin}` : ""}
                        </span>
                      </span>
                      <Link className="button secondary" href={`${base}?product=${m.id}`} aria-label={`Sell ${m.title}`}>
                        Sell this
                      </Link>
                    </li>
                  ))}
                </ul>
              ) : (
                <p data-no-matches="true">No product matches “{q}”. Describe it as a new product below.</p>
              )
            ) : null}
          </>
        )}
      </section>
      <section aria-labelledby="offer-heading" className="panel">
        <h2 id="offer-heading">{product ? "2. Your offer" : "2. Describe a new product and your offer"}</h2>
        <form method="post" action={`/seller/${store.slug}/listings/create`} encType="multipart/form-data" className="stacked-form" aria-labelledby="offer-heading">
          {state.alert()}
          {product ? (
            <input type="hidden" name="product_id" value={product.id} />
          ) : (
            <fieldset>
              <legend>New product</legend>
              <label>
                Product title
                <input {...state.field("product_title")} defaultValue={state.value("product_title")} required maxLength={200} />
              </label>
              <label>
                Category
                <select {...state.field("product_category")} defaultValue={state.value("product_category")} required>
                  <option value="">Choose a category</option>
                  {categories.map((c) => (
                    <option key={c.slug} value={c.slug}>
                      {c.label}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Brand (optional)
                <select {...state.field("product_brand")} defaultValue={state.value("product_brand")}>
                  <option value="">No brand</option>
                  {brands.map((b) => (
                    <option key={b.slug} value={b.slug}>
                      {b.name}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Description (optional)
                <textarea {...state.field("product_description")} defaultValue={state.value("product_description")} rows={5} maxLength={5_000} />
              </label>
              <label>
                Picture (optional: JPEG, PNG, WebP or AVIF, at most 10 MiB; without one the product gets a generated picture)
                <input {...state.field("picture")} type="file" accept="image/jpeg,image/png,image/webp,image/avif" />
              </label>
            </fieldset>
          )}
          <ListingFields
            state={state}
            values={{
              sku: "",
              condition: "new",
              price_cents: null,
              list_price_cents: null,
              quantity: 0,
              allow_backorder: false,
              shipping_template_id: templates.length === 1 ? templates[0]!.id : null,
            }}
            templates={templates}
          />
          {templates.length === 0 ? (
            <p className="muted">
              A listing needs a shipping template before it can be published:{" "}
              <Link href={`/seller/${store.slug}/shipping/new`}>create one</Link>.
            </p>
          ) : null}
          <button type="submit">Create listing</button>
        </form>
      </section>
    </main>
  );
}
